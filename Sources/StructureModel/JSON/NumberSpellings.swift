/// How some numbers of one element were spelled in its file, where that differs from how
/// `JSONWriter` prints them: other digits for the same float (`4.5781748` where shortest
/// printing gives `4.5781746`), exponents (`1e-3`), trailing zeros (`1.50`), `-0.0`.
/// Writing a kept spelling back is what makes a no-op save of such a file byte-identical,
/// and what keeps a diff after an edit down to the numbers that were edited.
///
/// Most files spell every number the writer's way; then nothing is kept and this costs one
/// word per element. A spelling is used only while its number still has the value it was
/// read as: a number an edit changed is written in the canonical form. Because the value is
/// compared, an element that is edited keeps the spellings of its other numbers, and undo,
/// which swaps the old element back, brings the old bytes back with it.
///
/// Not part of an element's value: elements that differ only in how their numbers were
/// spelled are equal, and hash alike.
public struct NumberSpellings: Sendable, Hashable {
    /// One kept spelling, in 16 bytes: which number (`slot`), the value it was read as (a
    /// float's bit pattern; for a whole number, its low 32 bits, the writer checking the
    /// rest by reading the text), and where its text is in `Storage.text`.
    struct Entry {
        var value: UInt32
        var slot: UInt32
        var start: UInt32
        var count: UInt32
    }

    /// Shared and never changed once built, so copies of an element share it.
    final class Storage: Sendable {
        let entries: [Entry]
        let text: [UInt8]

        init(entries: [Entry], text: [UInt8]) {
            self.entries = entries
            self.text = text
        }
    }

    private let storage: Storage?

    public init() {
        storage = nil
    }

    fileprivate init(storage: Storage?) {
        self.storage = storage
    }

    /// Whether no number has a spelling of its own.
    public var isEmpty: Bool { storage == nil }

    /// How many numbers have a spelling of their own.
    public var count: Int { storage?.entries.count ?? 0 }

    public static func == (lhs: NumberSpellings, rhs: NumberSpellings) -> Bool { true }

    public func hash(into hasher: inout Hasher) {}

    /// The kept text of the float in `slot` when it still has `value`; nil otherwise.
    @inline(__always)
    func spelling(_ slot: UInt32, value: Float) -> ArraySlice<UInt8>? {
        guard let storage else { return nil }
        return storage.spelling(slot, value: value.bitPattern)
    }

    /// The kept text of the whole number in `slot` when it still has `value`; nil otherwise.
    func spelling(_ slot: UInt32, value: Int) -> ArraySlice<UInt8>? {
        guard let storage, let text = storage.spelling(slot, value: UInt32(truncatingIfNeeded: value)),
              let number = Double(String(decoding: text, as: UTF8.self)), number == Double(value) else { return nil }
        return text
    }
}

extension NumberSpellings.Storage {
    func spelling(_ slot: UInt32, value: UInt32) -> ArraySlice<UInt8>? {
        // Entries are sorted by slot: a binary search, for elements whose every number is odd.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].slot < slot { low = middle + 1 } else { high = middle }
        }
        guard low < entries.count, entries[low].slot == slot, entries[low].value == value else { return nil }
        let entry = entries[low]
        return text[Int(entry.start)..<Int(entry.start + entry.count)]
    }
}

/// Collects the odd spellings of one element while it is read; allocates nothing until the
/// first one.
struct NumberSpellingsBuilder {
    private var entries: [NumberSpellings.Entry] = []
    private var text: [UInt8] = []

    mutating func record(_ slot: UInt32, value: UInt32, spelled bytes: UnsafeBufferPointer<UInt8>) {
        // The text of one element beyond 4 GB cannot be addressed: such a number is written
        // canonically, which is still the same value.
        guard text.count + bytes.count < Int(UInt32.max) else { return }
        entries.append(NumberSpellings.Entry(value: value, slot: slot, start: UInt32(text.count), count: UInt32(bytes.count)))
        text.append(contentsOf: bytes)
    }

    func build() -> NumberSpellings {
        guard !entries.isEmpty else { return NumberSpellings() }
        // Fresh arrays, so the spare capacity of growing them is not kept for the file's life.
        var sorted = entries.withUnsafeBufferPointer { Array($0) }
        // Keys in sorted order (Apple's layout) give sorted slots already.
        if !zip(sorted, sorted.dropFirst()).allSatisfy({ $0.slot < $1.slot }) {
            sorted.sort { $0.slot < $1.slot }
        }
        return NumberSpellings(storage: NumberSpellings.Storage(entries: sorted, text: text.withUnsafeBufferPointer { Array($0) }))
    }
}

/// Names one number of an element for `NumberSpellings`: a field and an index in it
/// (a vector's component, a transform's element, a polygon corner's coordinate).
struct NumberSlot {
    enum Field: UInt32 {
        case dimensions = 1, transform, polygonCorners, story, center, version, referenceOriginTransform
    }

    /// The slots of one field; an index too large to name is not kept (it is written canonically).
    static func of(_ field: Field, _ index: Int) -> UInt32 {
        index < 1 << 27 ? field.rawValue << 27 | UInt32(index) : 0
    }
}
