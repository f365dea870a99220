import GRDB
import PushCore
import StoreContract

extension SQLiteStore {
    /// The template a user chose; `nil` when the user is unknown.
    public func pushTemplateName(app: String, user: String) async throws -> PushTemplateName? {
        try await pool.read { db in try Self.pushTemplateName(db, app: app, user: user) }
    }

    static func pushTemplateName(_ db: Database, app: String, user: String) throws -> PushTemplateName? {
        guard
            let raw = try String.fetchOne(
                db, sql: "SELECT push_template FROM users WHERE app_id = ? AND user_id = ?", arguments: [app, user])
        else { return nil }
        guard let name = PushTemplateName(rawValue: raw) else {
            throw PushStoreError.corruptValue(table: "users", column: "push_template", value: raw)
        }
        return name
    }

    /// Sets the template a user receives, creating the user.
    public func setPushTemplateName(app: String, user: String, _ name: PushTemplateName) async throws {
        let now = clock()
        try await registryWrite(app: app) { db in
            try Self.ensureUser(db, app: app, user: user, now: now)
            try db.execute(
                sql: "UPDATE users SET push_template = ? WHERE app_id = ? AND user_id = ?",
                arguments: [name.rawValue, app, user])
        }
    }

    /// The templates an app changed through the API, by name. A template not listed here is the
    /// app's configured one (Sendbird's texts unless the configuration says otherwise).
    public func storedMessageTemplates(app: String) async throws -> [PushTemplateName: PushMessageTemplate] {
        try await pool.read { db in try Self.storedMessageTemplates(db, app: app) }
    }

    static func storedMessageTemplates(_ db: Database, app: String) throws -> [PushTemplateName: PushMessageTemplate] {
        var templates: [PushTemplateName: PushMessageTemplate] = [:]
        let statement = RawStatement(
            try db.cachedStatement(
                sql: """
                    SELECT \(MessageTemplateRecord.rawColumns) FROM push_message_templates WHERE app_id = ?
                    """))
        statement.bind(1, app)
        var records: [MessageTemplateRecord] = []
        try statement.forEachRow { records.append(MessageTemplateRecord(raw: $0)) }
        for record in records {
            // A name this version does not know (written by a newer one) is skipped, not fatal.
            if let name = PushTemplateName(rawValue: record.templateName) {
                templates[name] = record.template
            }
        }
        return templates
    }

    /// One template of an app as changed through the API; nil when it never was.
    public func storedMessageTemplate(app: String, name: PushTemplateName) async throws -> PushMessageTemplate? {
        try await pool.read { db in
            try MessageTemplateRecord.fetchOne(db, key: ["app_id": app, "template_name": name.rawValue])?.template
        }
    }

    /// Reads, changes and writes one template of an app in one transaction. A template not
    /// stored yet starts from `baseline` (the configured one) and is stored whole.
    @discardableResult
    public func updateMessageTemplate(
        app: String,
        name: PushTemplateName,
        startingFrom baseline: PushMessageTemplate,
        _ change: @escaping @Sendable (inout PushMessageTemplate) throws -> Void
    ) async throws -> PushMessageTemplate {
        try await registryWrite(app: app) { db in
            var template =
                try MessageTemplateRecord.fetchOne(db, key: ["app_id": app, "template_name": name.rawValue])?.template
                ?? baseline
            try change(&template)
            try MessageTemplateRecord(app: app, name: name, template: template).save(db)
            return template
        }
    }
}
