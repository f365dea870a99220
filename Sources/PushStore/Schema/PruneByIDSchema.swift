import GRDB
import StoreContract

/// Migration `v11_prune_by_id`: `deliveries_on_created` goes. Only the pruner read it, and ids
/// follow the order deliveries were accepted in, so it walks the table itself by id
/// (`SQLiteStore.prune`). Every delivery the webhook accepts wrote an entry in it, and every
/// commit rewrote its last page.
enum PruneByIDSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX deliveries_on_created")
    }
}
