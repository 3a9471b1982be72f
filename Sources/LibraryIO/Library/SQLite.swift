import CSQLite

/// A failure of libsqlite3, with its own message (`sqlite3_errmsg`) and the
/// extended result code to branch on.
package struct SQLiteError: Error, CustomStringConvertible {
    package let code: Int32
    package let message: String

    package var description: String { message }

    /// The file is not a database, or its pages do not hold together: the
    /// index is set aside and rebuilt (it is a cache).
    package var meansDamagedFile: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }
}

/// One connection to one database file, used by one thread at a time (it is
/// not `Sendable`): the scan thread and the main loop each open their own;
/// WAL lets the main loop read while a scan writes.
package final class SQLiteConnection {
    private var handle: OpaquePointer?

    package init(path: String) throws(SQLiteError) {
        var message = [CChar](repeating: 0, count: 256)
        if interlude_sqlite_load(&message, message.count) != 0 {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw SQLiteError(code: SQLITE_ERROR, message: "cannot load libsqlite3 (\(text))")
        }
        var database: OpaquePointer?
        let status = interlude_sqlite3_open(path, &database)
        guard status == SQLITE_OK, let database else {
            let text = database.map { String(cString: interlude_sqlite3_errmsg($0)) }
                ?? String(cString: interlude_sqlite3_errstr(status))
            if let database { _ = interlude_sqlite3_close(database) }
            throw SQLiteError(code: status, message: text)
        }
        handle = database
        // A second connection (the pane reading while a scan commits) waits
        // for the other's short write instead of failing at once.
        _ = interlude_sqlite3_busy_timeout(database, 2000)
    }

    deinit { close() }

    package func close() {
        if let handle { _ = interlude_sqlite3_close(handle) }
        handle = nil
    }

    private var database: OpaquePointer {
        guard let handle else { preconditionFailure("SQLiteConnection used after close()") }
        return handle
    }

    package func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: interlude_sqlite3_extended_errcode(database) != 0 ? interlude_sqlite3_extended_errcode(database) : status,
                    message: String(cString: interlude_sqlite3_errmsg(database)))
    }

    /// Runs statements without results (schema, pragmas, transactions).
    package func execute(_ sql: String) throws(SQLiteError) {
        let status = interlude_sqlite3_exec(database, sql)
        if status != SQLITE_OK { throw error(status) }
    }

    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = interlude_sqlite3_prepare(database, sql, &statement)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        return SQLiteStatement(statement, connection: self)
    }

    /// `body` inside one transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    package var changes: Int { Int(interlude_sqlite3_changes(database)) }

    /// The row id of the last row an INSERT added on this connection.
    package var lastInsertedRowID: Int64 { interlude_sqlite3_last_insert_rowid(database) }
}

/// A prepared statement, reset and reused for each row of a batch.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection

    fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { _ = interlude_sqlite3_finalize(statement) }

    package enum Value {
        case integer(Int64?)
        case real(Double?)
        case text(String?)
    }

    /// Binds `values` to ?1, ?2, ... after a reset.
    package func bind(_ values: [Value]) throws(SQLiteError) {
        _ = interlude_sqlite3_reset(statement)
        _ = interlude_sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number?): status = interlude_sqlite3_bind_int64(statement, index, number)
            case .real(let number?): status = interlude_sqlite3_bind_double(statement, index, number)
            case .text(let text?):
                let length = Int32(text.utf8.count)
                status = text.withCString { interlude_sqlite3_bind_text(statement, index, $0, length) }
            case .integer(nil), .real(nil), .text(nil): status = interlude_sqlite3_bind_null(statement, index)
            }
            if status != SQLITE_OK { throw connection.error(status) }
        }
    }

    /// Steps once: true with a row to read, false when done.
    package func step() throws(SQLiteError) -> Bool {
        let status = interlude_sqlite3_step(statement)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(status)
        }
    }

    /// Ends a read early (a lookup of one row), so the statement holds no
    /// read lock until its next use.
    package func reset() {
        _ = interlude_sqlite3_reset(statement)
    }

    /// Binds, then steps to the end (an INSERT, UPDATE or DELETE).
    package func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    package func integer(_ column: Int32) -> Int64? {
        interlude_sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : interlude_sqlite3_column_int64(statement, column)
    }

    package func real(_ column: Int32) -> Double? {
        interlude_sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : interlude_sqlite3_column_double(statement, column)
    }

    /// The column's text as SQLite holds it (UTF-8, no copy), valid only
    /// inside `body`; empty for NULL.
    package func withTextBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        guard let bytes = interlude_sqlite3_column_text(statement, column) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: bytes, count: Int(interlude_sqlite3_column_bytes(statement, column))))
    }

    package func text(_ column: Int32) -> String? {
        guard let bytes = interlude_sqlite3_column_text(statement, column) else { return nil }
        let count = Int(interlude_sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
