import CSQLite

/// `lantern_group_totals(key, value)`, the aggregate behind date groupings with a statistic (see
/// `GroupTotalsAccumulator`). The aggregate context holds one retained accumulator, made at the
/// first row and released by xFinal (which SQLite calls once per aggregate, also when a
/// statement is reset early).
enum GroupTotalsFunction {
    static func register(on database: SQLiteDatabase) throws(SearchIndexError) {
        try database.createFunction("lantern_group_totals", argumentCount: 2, flags: SQLITE_UTF8 | SQLITE_DETERMINISTIC, step: { context, count, arguments in
            guard count == 2, let arguments, sqlite3_value_type(arguments[0]) != SQLITE_NULL else { return }
            guard let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))?
                .assumingMemoryBound(to: UnsafeMutableRawPointer?.self) else {
                sqlite3_result_error_nomem(context)
                return
            }
            let accumulator: GroupTotalsAccumulator
            if let existing = slot.pointee {
                accumulator = Unmanaged<GroupTotalsAccumulator>.fromOpaque(existing).takeUnretainedValue()
            } else {
                accumulator = GroupTotalsAccumulator()
                slot.pointee = Unmanaged.passRetained(accumulator).toOpaque()
            }
            let value = sqlite3_value_type(arguments[1]) == SQLITE_NULL ? nil : sqlite3_value_double(arguments[1])
            accumulator.add(key: sqlite3_value_int64(arguments[0]), value: value)
        }, final: { context in
            var bytes: [UInt8] = []
            if let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self),
               let existing = slot.pointee {
                bytes = Unmanaged<GroupTotalsAccumulator>.fromOpaque(existing).takeRetainedValue().encoded()
                slot.pointee = nil
            }
            bytes.withUnsafeBytes { buffer in
                if let base = buffer.baseAddress, buffer.count > 0 {
                    sqlite3_result_blob(context, base, Int32(buffer.count), sqliteTransient)
                } else {
                    sqlite3_result_zeroblob(context, 0)
                }
            }
        })
    }
}
