import Foundation
import StructureModel
import XCTest

/// Runs `Tests/Checkers/ifc_check.py` (IfcOpenShell) over IFC files wb wrote and compares
/// what IfcOpenShell read with the RoomPlan JSON the files came from.
enum IFCCheck {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Checkers/ifc_check.py")

    /// IfcOpenShell's report of each file, keyed by path. Skips (XCTSkip, saying why) when
    /// python3 or ifcopenshell is missing: `Scripts/setup-ifc-check.sh` installs it.
    static func run(_ paths: [String]) throws -> [String: [String: Any]] {
        let result = try Harness.run(["python3", script.path] + paths, executable: URL(fileURLWithPath: "/usr/bin/env"))
        guard result.status == 0, let data = result.stdout.data(using: .utf8),
              let top = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw XCTSkip("ifc_check.py did not run (python3 missing?): status \(result.status), \(result.stderr.prefix(500))")
        }
        if let why = top["unavailable"] as? String {
            throw XCTSkip("IfcOpenShell is not installed (Scripts/setup-ifc-check.sh installs it): \(why)")
        }
        return try XCTUnwrap(top["files"] as? [String: [String: Any]])
    }

    /// RoomPlan (x, y, z), Y up, as IFC's (x, −z, y), Z up.
    static func ifc(_ p: SIMD3<Double>) -> SIMD3<Double> { SIMD3(p.x, -p.z, p.y) }

    /// A placement's origin and X axis from the 4×4 rows ifcopenshell gives.
    static func origin(_ product: [String: Any]) -> SIMD3<Double>? {
        guard let m = product["matrix"] as? [[Double]] else { return nil }
        return SIMD3(m[0][3], m[1][3], m[2][3])
    }

    static func xAxis(_ product: [String: Any]) -> SIMD3<Double>? {
        guard let m = product["matrix"] as? [[Double]] else { return nil }
        return SIMD3(m[0][0], m[1][0], m[2][0])
    }

    static func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        ((a - b) * (a - b)).sum().squareRoot()
    }

    /// The UUID ifcopenshell expands a GlobalId to, as RoomPlan writes UUIDs (upper case, dashes).
    static func uuid(_ product: [String: Any]) -> String? {
        guard let hex = product["uuid"] as? String else { return nil }
        let plain = hex.replacingOccurrences(of: "-", with: "").uppercased()
        guard plain.count == 32 else { return nil }
        let c = Array(plain)
        return [String(c[0..<8]), String(c[8..<12]), String(c[12..<16]), String(c[16..<20]), String(c[20..<32])].joined(separator: "-")
    }

    static func property(_ product: [String: Any], _ name: String) -> Any? {
        ((product["psets"] as? [String: Any])?["RoomPlan_Common"] as? [String: Any])?[name]
    }

    /// The IFC class each RoomPlan object category is expected as.
    static let objectClasses: [String: String] = [
        "bed": "IfcFurniture", "sofa": "IfcFurniture", "table": "IfcFurniture", "chair": "IfcFurniture", "storage": "IfcFurniture",
        "sink": "IfcSanitaryTerminal", "toilet": "IfcSanitaryTerminal", "bathtub": "IfcSanitaryTerminal",
        "refrigerator": "IfcElectricAppliance", "stove": "IfcElectricAppliance", "oven": "IfcElectricAppliance",
        "dishwasher": "IfcElectricAppliance", "washerDryer": "IfcElectricAppliance",
        "television": "IfcAudioVisualAppliance", "stairs": "IfcStair", "fireplace": "IfcBuildingElementProxy",
    ]

    /// Where wb should place an upright element whose box RoomPlan centres at `transform`:
    /// at the lower left of its face (walls, doors, windows: `left` = half the width along
    /// its local X) or the bottom centre (objects, `left` = 0), in IFC world coordinates.
    static func expectedOrigin(_ transform: Transform, halfWidth left: Double, height: Double) -> SIMD3<Double> {
        let c = transform.translation
        var x = transform.column(0)
        x.y = 0
        let length = (x * x).sum().squareRoot()
        x = length > 0 ? x / length : SIMD3(1, 0, 0)
        return ifc(c - x * left - SIMD3(0, height / 2, 0))
    }

    static func horizontalAxis(_ transform: Transform) -> SIMD3<Double> {
        var x = transform.column(0)
        x.y = 0
        let length = (x * x).sum().squareRoot()
        return ifc(length > 0 ? x / length : SIMD3(1, 0, 0))
    }
}
