import Foundation

/// Dates as the Hyperbasis SDK writes and older iOS reads them: UTC, whole seconds, `Z`.
public enum HyperbasisDate {
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

extension AnchorRecord {
    /// Refuses to edit an anchor whose id is in several files: which of them is the anchor
    /// is the user's call, and a save would write one over the other.
    func checkEditable() throws(EditError) {
        guard !duplicates.isEmpty else { return }
        throw EditError("anchor \(id.uppercased()) is in \(duplicates.count + 1) files (\(([file] + duplicates).joined(separator: ", "))); "
                        + "wb will not choose between them: keep one file and reopen the store")
    }

    /// The record with its transform replaced, in the file's JSON too.
    func with(transform: Transform) -> AnchorRecord {
        var copy = self
        copy.transform = transform
        copy.json["transform"] = AnchorRecord.transformJSON(transform)
        return copy
    }
}

/// Edits of Hyperbasis spaces and anchors, planned like every other edit: the changes swap
/// whole records, so undo restores them exactly. Timestamps and events are the save's work.
extension Workspace {
    private func storeEntry(_ id: Int) throws(EditError) -> StoreEntry {
        guard let index = storeIndex(id: id) else { throw EditError("that store is not open") }
        return stores[index]
    }

    public func planRenameSpace(store: Int, index: Int, name: String?) throws(EditError) -> EditPlan {
        var record = try storeEntry(store).store.spaces[index]
        guard record.duplicates.isEmpty else {
            throw EditError("space \(record.id.uppercased()) is in \(record.duplicates.count + 1) files (\(([record.file] + record.duplicates).joined(separator: ", "))); "
                            + "wb will not choose between them: keep one file and reopen the store")
        }
        let new = name?.isEmpty == true ? nil : name
        var plan = EditPlan()
        guard record.name != new else { return plan }
        record.name = new
        record.json["name"] = new.map { .string($0) }
        plan.changes.append(.space(store: store, index: index, record))
        return plan
    }

    public func planMoveAnchor(store: Int, index: Int, by offset: SIMD3<Double>) throws(EditError) -> EditPlan {
        let record = try storeEntry(store).store.anchors[index]
        try record.checkEditable()
        guard let transform = record.transform else {
            throw EditError("this anchor's transform is not 16 numbers; set it whole before moving it")
        }
        var moved = transform
        moved.translation = transform.translation + offset
        return EditPlan(changes: [.anchor(store: store, index: index, record.with(transform: moved))], notes: [])
    }

    public func planSetMetadata(store: Int, index: Int, key: String, value: JSONValue?) throws(EditError) -> EditPlan {
        var record = try storeEntry(store).store.anchors[index]
        try record.checkEditable()
        guard !key.isEmpty else { throw EditError("a metadata key cannot be empty") }
        if value == nil && record.metadata[key] == nil { throw EditError("the anchor has no metadata key '\(key)'") }
        var plan = EditPlan()
        guard record.metadata[key] != value else { return plan }
        record.metadata[key] = value
        record.json["metadata"] = .object(record.metadata)
        plan.changes.append(.anchor(store: store, index: index, record))
        return plan
    }

    /// Soft deletion, as the SDK does it: `deletedAt` is set; the file stays.
    public func planDeleteAnchor(store: Int, index: Int, now: Date) throws(EditError) -> EditPlan {
        var record = try storeEntry(store).store.anchors[index]
        try record.checkEditable()
        guard !record.isDeleted else { throw EditError("it is already deleted") }
        let stamp = HyperbasisDate.string(now)
        record.deletedAt = stamp
        record.json["deletedAt"] = .string(stamp)
        return EditPlan(changes: [.anchor(store: store, index: index, record)], notes: [])
    }

    public func planRestoreAnchor(store: Int, index: Int) throws(EditError) -> EditPlan {
        var record = try storeEntry(store).store.anchors[index]
        try record.checkEditable()
        guard record.isDeleted else { throw EditError("it is not deleted") }
        record.deletedAt = nil
        record.json["deletedAt"] = nil
        return EditPlan(changes: [.anchor(store: store, index: index, record)], notes: [])
    }
}
