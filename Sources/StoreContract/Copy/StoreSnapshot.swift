/// A store as it stood at one moment, read page by page: what `push-relay migrate-store` copies
/// from (SQLite's `SQLiteSnapshot`), without the copy's target knowing the source's database.
public protocol StoreSnapshot: Sendable {
    /// Rows in `table` (a `CopiedTable`'s name, or `deliveries`, `delivery_payloads`, `delivery_attempts`).
    func count(_ table: String) async throws -> Int
    /// Deliveries by state (`in_flight` ones arrive pending).
    func deliveryStates() async throws -> [String: Int]
    /// Up to `limit` rows after `cursor` (from the start when nil), in `table.pageKey` order.
    func page(_ table: CopiedTable, after cursor: TablePage.Cursor?, limit: Int) async throws -> TablePage
    /// Up to `limit` deliveries after `id` (from the start when nil), each with its payload and attempts.
    func deliveries(after id: Int64?, limit: Int) async throws -> DeliveryPage
}
