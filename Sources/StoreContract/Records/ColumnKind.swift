/// A stored column's kind, as both schemas give it (PostgreSQL's booleans are SQLite's 0/1
/// integers).
public enum ColumnKind: Sendable, Hashable {
    case text, integer, blob, boolean
}
