import Foundation

/// A page of a `CopiedTable`'s rows, column by column: the arrays PostgreSQL's `unnest` takes.
public struct TablePage: Sendable {
    /// One column's values, in row order.
    public enum Values: Sendable, Hashable {
        case text([String?])
        case integer([Int64?])
        case blob([Data])
        case boolean([Bool])
    }

    public let table: CopiedTable
    /// In `table.columns`' order.
    public let columns: [Values]
    public let count: Int
    /// Where the next page starts; nil after the last page.
    public let next: Cursor?

    /// A position in `table.pageKey` order (the last row read), as the source reads it back.
    public struct Cursor: Sendable {
        public enum Value: Sendable, Hashable {
            case null
            case integer(Int64)
            case text(String)
            case blob(Data)
        }

        public let key: [Value]

        public init(key: [Value]) {
            self.key = key
        }
    }

    public init(table: CopiedTable, columns: [Values], count: Int, next: Cursor?) {
        self.table = table
        self.columns = columns
        self.count = count
        self.next = next
    }

    /// The values of the column named `name`.
    public func values(of name: String) -> Values? {
        table.columns.firstIndex { $0.name == name }.map { columns[$0] }
    }
}
