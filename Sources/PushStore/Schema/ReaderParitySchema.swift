import GRDB
import StoreContract

/// Migration `v15_reader_parity`: what each reader sees as on Sendbird. A user's
/// `preferred_languages` (Sendbird's, up to four, in order; `PreferredLanguages.stored` form,
/// empty for none) choose the translation their pushes show; a device's click on a push is
/// recorded beside its delivery acknowledgement.
enum ReaderParitySchema {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE users ADD COLUMN preferred_languages TEXT NOT NULL DEFAULT '';
                ALTER TABLE deliveries ADD COLUMN clicked_at_ms INTEGER;
                """)
    }
}
