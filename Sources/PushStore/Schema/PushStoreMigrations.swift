import GRDB
import StoreContract

/// The schema, as named GRDB migrations. Later features (webhook events, the delivery queue, the
/// delivery log) append their own named migrations here; a migration that has shipped is never
/// edited, only followed by a new one.
enum PushStoreMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1_users_tokens_preferences_templates", migrate: createRegistry)
        migrator.registerMigration("v2_events_deliveries", migrate: DeliveryQueueSchema.create)
        migrator.registerMigration("v3_delivery_payloads", migrate: DeliveryQueueSchemaV3.migrate)
        migrator.registerMigration("v4_credentials", migrate: CredentialsSchema.create)
        migrator.registerMigration("v5_due_by_app", migrate: DueByAppSchema.migrate)
        migrator.registerMigration("v6_users_badges_acks", migrate: UsersBadgesAcksSchema.migrate)
        migrator.registerMigration("v7_fcm_message_names", migrate: FCMMessageNameSchema.migrate)
        migrator.registerMigration("v8_recipient_read_model", migrate: RecipientReadModelSchema.migrate)
        migrator.registerMigration("v9_one_due_index", migrate: DueIndexSchema.migrate)
        migrator.registerMigration("v10_shared_payloads", migrate: SharedPayloadSchema.migrate)
        migrator.registerMigration("v11_prune_by_id", migrate: PruneByIDSchema.migrate)
        migrator.registerMigration("v12_no_sender_index", migrate: SenderScanSchema.migrate)
        migrator.registerMigration("v13_packed_payloads", migrate: PackedPayloadSchema.migrate)
        migrator.registerMigration("v14_credential_issuers", migrate: CredentialIssuerSchema.migrate)
        migrator.registerMigration("v15_reader_parity", migrate: ReaderParitySchema.migrate)
        migrator.registerMigration("v16_test_pushes", migrate: TestPushSchema.migrate)
        migrator.registerMigration("v17_console_sessions", migrate: ConsoleSessionSchema.migrate)
        migrator.registerMigration("v18_per_app_log", migrate: PerAppLogSchema.migrate)
        migrator.registerMigration("v19_delivery_provider", migrate: DeliveryProviderSchema.migrate)
        migrator.registerMigration("v20_preferences_by_name", migrate: PreferencesByNameSchema.migrate)
        migrator.registerMigration("v21_token_configurations", migrate: TokenConfigurationSchema.migrate)
        migrator.registerMigration("v22_live_activities", migrate: LiveActivitySchema.migrate)
        migrator.registerMigration("v23_broadcast_channels", migrate: BroadcastChannelSchema.migrate)
        migrator.registerMigration("v24_notifications", migrate: NotificationSchema.migrate)
        return migrator
    }

    /// Users, device tokens, push preferences, template choice and app templates. Every row is
    /// scoped by `app_id`; each lookup the REST API and the dispatcher make has an index (a
    /// primary key or `device_tokens_on_user`).
    private static func createRegistry(_ db: Database) throws {
        // A user exists for the relay once something was written for them (Sendbird creates users
        // through its own user API, which the relay does not have).
        try db.execute(
            sql: """
                CREATE TABLE users (
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    push_template TEXT NOT NULL DEFAULT 'default',
                    PRIMARY KEY (app_id, user_id)
                ) WITHOUT ROWID;

                -- `id` orders tokens registered within the same millisecond, so eviction of the
                -- oldest is deterministic. A re-registration deletes and re-inserts the row.
                CREATE TABLE device_tokens (
                    id INTEGER PRIMARY KEY,
                    app_id TEXT NOT NULL,
                    token TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    registered_at INTEGER NOT NULL,
                    UNIQUE (app_id, token),
                    FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, user_id) ON DELETE CASCADE
                );
                CREATE INDEX device_tokens_on_user ON device_tokens (app_id, user_id, registered_at);

                -- No row means the defaults (`UserPushPreferences.defaults`).
                CREATE TABLE user_push_preferences (
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    push_trigger_option TEXT NOT NULL,
                    do_not_disturb INTEGER NOT NULL,
                    start_hour INTEGER NOT NULL,
                    start_min INTEGER NOT NULL,
                    end_hour INTEGER NOT NULL,
                    end_min INTEGER NOT NULL,
                    timezone TEXT NOT NULL,
                    snooze_enabled INTEGER NOT NULL,
                    snooze_start_ts INTEGER NOT NULL,
                    snooze_end_ts INTEGER NOT NULL,
                    dnd_schedules TEXT NOT NULL,
                    push_sound TEXT NOT NULL,
                    block_push_from_bots INTEGER NOT NULL,
                    push_blocked_bot_ids TEXT NOT NULL,
                    enable_push_for_replies INTEGER NOT NULL,
                    PRIMARY KEY (app_id, user_id),
                    FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, user_id) ON DELETE CASCADE
                ) WITHOUT ROWID;

                -- No row means `ChannelPushPreference.defaults` (trigger option `default`).
                CREATE TABLE channel_push_preferences (
                    app_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    channel_url TEXT NOT NULL,
                    push_trigger_option TEXT NOT NULL,
                    push_sound TEXT,
                    PRIMARY KEY (app_id, user_id, channel_url),
                    FOREIGN KEY (app_id, user_id) REFERENCES users (app_id, user_id) ON DELETE CASCADE
                ) WITHOUT ROWID;

                -- No row means Sendbird's default texts for that template name.
                CREATE TABLE push_message_templates (
                    app_id TEXT NOT NULL,
                    template_name TEXT NOT NULL,
                    mesg TEXT NOT NULL,
                    file TEXT NOT NULL,
                    admm TEXT NOT NULL,
                    PRIMARY KEY (app_id, template_name)
                ) WITHOUT ROWID;
                """)
    }
}
