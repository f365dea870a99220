import Foundation
import GRDB
import GRDBSQLite
import StoreContract

/// A GRDB-cached statement driven through SQLite's C API, for the few statements the webhook and
/// the dispatcher run thousands of times per second.
///
/// GRDB's `execute(arguments:)` and row cursors box every argument and build a column-name
/// dictionary per execution; on the hot path that was about half the CPU of a commit
/// (`pipeline-bench`). Binding and reading by position costs nothing of the sort. Use it only
/// inside a GRDB `read`/`write` closure (GRDB still owns the connection, the transaction and the
/// statement cache); every call leaves the statement reset, as GRDB expects.
struct RawStatement {
    private let handle: OpaquePointer
    /// For error messages only (`Statement.sql` is not free to read).
    private let statement: Statement

    /// - Parameter keepingArguments: run with the arguments GRDB's `setArguments` bound, for
    ///   statements that are not hot enough to bind by hand but whose rows are read by position.
    init(_ statement: Statement, keepingArguments: Bool = false) {
        handle = statement.sqliteStatement
        self.statement = statement
        sqlite3_reset(handle)
        if !keepingArguments { sqlite3_clear_bindings(handle) }
    }

    // MARK: Binding (1-based, as in SQLite)

    func bind(_ index: Int32, _ value: String) {
        // By byte length, not up to the first NUL: the text is stored exactly as given.
        // SQLITE_TRANSIENT: SQLite copies the bytes, which only live for this call.
        var value = value
        _ = value.withUTF8 { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, Self.transient) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ index: Int32, _ value: Int) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    func bind(_ index: Int32, _ value: Data) {
        _ = value.withUnsafeBytes { raw in
            sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), Self.transient)
        }
    }

    func bind(_ index: Int32, bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { raw in
            sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), Self.transient)
        }
    }

    func bind(_ index: Int32, _ value: Data?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    // MARK: Running

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run() throws -> Int {
        defer { reset() }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code) }
        return Int(sqlite3_changes(sqlite3_db_handle(handle)))
    }

    /// Calls `body` for each result row, then resets.
    func forEachRow(_ body: (Row) throws -> Void) throws {
        defer { reset() }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw error(code) }
            try body(Row(handle: handle))
        }
    }

    private func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    private func error(_ code: Int32) -> DatabaseError {
        let message = sqlite3_errmsg(sqlite3_db_handle(handle)).map { String(cString: $0) }
        sqlite3_reset(handle)
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// The current result row, read by 0-based column position.
    struct Row {
        fileprivate let handle: OpaquePointer

        func string(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(handle, column) else { return "" }
            return String(
                decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))),
                as: UTF8.self)
        }

        func optionalString(_ column: Int32) -> String? {
            sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : string(column)
        }

        func int64(_ column: Int32) -> Int64 {
            sqlite3_column_int64(handle, column)
        }

        var columnCount: Int32 { sqlite3_column_count(handle) }

        func optionalInt64(_ column: Int32) -> Int64? {
            sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int64(column)
        }

        func data(_ column: Int32) -> Data {
            // Read the pointer first: asking for the size first could convert the value.
            guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
        }

        /// The blob's bytes, valid only inside `body` (no copy); nil for NULL.
        func withBlob<T>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
            guard sqlite3_column_type(handle, column) != SQLITE_NULL else { return nil }
            let bytes = sqlite3_column_blob(handle, column)
            return try body(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
        }

        func bool(_ column: Int32) -> Bool {
            sqlite3_column_int64(handle, column) != 0
        }
    }
}
