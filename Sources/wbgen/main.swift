// wbgen: writes a generated building as RoomPlan JSON, for wb's examples, tests and
// benchmarks (the real samples may not be copied into the repository).
import Foundation
import StructureModel

let usage = """
    usage: wbgen [--rooms N] [--stories S] [--seed K] [--core-model-kb KB]
                 [--noise X] [--rescans K] [--real-doorways] --out FOLDER

    Writes into FOLDER:
      structure.json      the whole building as one CapturedStructure (exact)
      rooms/*.json        each room as a separate CapturedRoom, in its own frame,
                          with a scan's noise; rescanned rooms again as *-rescan.json
      ground-truth.json   where each capture belongs in the building, which capture
                          is a rescan of which, and which capture elements each
                          structure-level element stands for
    --noise X scales the captures' noise: 1 (the default) is a phone's (walls off by
    up to 3 cm and 0.5°, some split or partly scanned), 0 exact captures.
    --rescans K scans K rooms a second time, in sessions of their own.
    --real-doorways makes doorways as real exports show them: doors of a few standard
    widths, the two sides of one up to 8 cm apart in width and 30 cm apart along their
    wall, now and then one a side does not see or sees a metre wider.
    The same options give the same bytes on every machine.
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wbgen: \(message)\n".utf8))
    exit(2)
}

func parse(_ list: [String]) -> (BuildingSpec, String) {
    var spec = BuildingSpec()
    var output: String?
    var arguments = list[...]
    func value(for flag: String) -> String {
        guard let value = arguments.popFirst() else { fail("\(flag) needs a value\n\(usage)") }
        return value
    }
    func number(for flag: String) -> Int {
        let text = value(for: flag)
        guard let number = Int(text), number >= 0 else { fail("\(flag) needs a whole number, got '\(text)'") }
        return number
    }
    func fraction(for flag: String) -> Double {
        let text = value(for: flag)
        guard let number = Double(text), number.isFinite, number >= 0 else {
            fail("\(flag) needs a number of 0 or more, got '\(text)'")
        }
        return number
    }
    var rooms = spec.rooms, stories = spec.stories, seed = spec.seed, coreModelBytes = spec.coreModelBytes
    var noise = spec.noise, rescans = spec.rescans, realDoorways = spec.realDoorways
    while let argument = arguments.popFirst() {
        switch argument {
        case "--rooms": rooms = number(for: argument)
        case "--stories": stories = number(for: argument)
        case "--seed": seed = UInt64(number(for: argument))
        case "--core-model-kb": coreModelBytes = number(for: argument) * 1000
        case "--noise": noise = fraction(for: argument)
        case "--rescans": rescans = number(for: argument)
        case "--real-doorways": realDoorways = true
        case "--out": output = value(for: argument)
        case "-h", "--help":
            print(usage)
            exit(0)
        default: fail("unknown option '\(argument)'\n\(usage)")
        }
    }
    spec = BuildingSpec(seed: seed, rooms: rooms, stories: stories, coreModelBytes: coreModelBytes,
                        noise: noise, rescans: rescans, realDoorways: realDoorways)
    guard let output else { fail("--out FOLDER is required\n\(usage)") }
    return (spec, output)
}

let (spec, output) = parse(Array(CommandLine.arguments.dropFirst()))
let building = BuildingGenerator.generate(spec)
do {
    try FileManager.default.createDirectory(atPath: output + "/rooms", withIntermediateDirectories: true)
    try FileIO.writeAtomically(try RoomPlanCodec.encodeChecked(.structure(building.structure)), to: output + "/structure.json")
    for capture in building.captures {
        try FileIO.writeAtomically(try RoomPlanCodec.encodeChecked(.room(capture.room)), to: output + "/rooms/" + capture.fileName)
    }
    try FileIO.writeAtomically(building.groundTruthJSON(), to: output + "/ground-truth.json")
} catch {
    fail("\(error)")
}
let rescanned = spec.rescans == 0 ? "" : " and \(spec.rescans) \(spec.rescans == 1 ? "rescan" : "rescans")"
print("wrote \(spec.rooms) rooms\(rescanned) over \(spec.stories) \(spec.stories == 1 ? "story" : "stories") to \(output)")
