import PostgresNIO
import PushCore
import StoreContract

extension PostgresStore {
    /// The template a user chose; `nil` when the user is unknown.
    public func pushTemplateName(app: String, user: String) async throws -> PushTemplateName? {
        try await withConnection { connection in
            guard
                let raw = try await connection.value(
                    "SELECT push_template FROM users WHERE app_id = \(app) AND user_id = \(user)", as: String.self, logger: logger)
            else { return nil }
            return try Self.templateName(raw)
        }
    }

    static func templateName(_ raw: String) throws -> PushTemplateName {
        guard let name = PushTemplateName(rawValue: raw) else {
            throw PushStoreError.corruptValue(table: "users", column: "push_template", value: raw)
        }
        return name
    }

    /// Sets the template a user receives, creating the user: one upsert.
    public func setPushTemplateName(app: String, user: String, _ name: PushTemplateName) async throws {
        let now = clock()
        try await registryWrite(app: app) { connection in
            try await connection.run(
                """
                INSERT INTO users (app_id, user_id, created_at, push_template) VALUES (\(app), \(user), \(now), \(name.rawValue))
                ON CONFLICT (app_id, user_id) DO UPDATE SET push_template = EXCLUDED.push_template
                """, logger: logger)
        }
    }

    /// The templates an app changed through the API, by name. A template not listed here is the
    /// app's configured one.
    public func storedMessageTemplates(app: String) async throws -> [PushTemplateName: PushMessageTemplate] {
        try await withConnection { connection in
            try await Self.storedMessageTemplates(connection, app: app, logger: logger)
        }
    }

    static func storedMessageTemplates(
        _ connection: PostgresConnection, app: String, logger: Logger
    ) async throws -> [PushTemplateName: PushMessageTemplate] {
        var templates: [PushTemplateName: PushMessageTemplate] = [:]
        for row in try await connection.rows(
            "SELECT template_name, mesg, file, admm FROM push_message_templates WHERE app_id = \(app)", logger: logger)
        {
            let (name, mesg, file, admm) = try row.decode((String, String, String, String).self)
            // A name this version does not know (written by a newer one) is skipped, not fatal.
            if let name = PushTemplateName(rawValue: name) {
                templates[name] = PushMessageTemplate(mesg: mesg, file: file, admm: admm)
            }
        }
        return templates
    }

    /// One template of an app as changed through the API; nil when it never was.
    public func storedMessageTemplate(app: String, name: PushTemplateName) async throws -> PushMessageTemplate? {
        try await withConnection { connection in
            try await Self.storedMessageTemplate(connection, app: app, name: name, logger: logger)
        }
    }

    private static func storedMessageTemplate(
        _ connection: PostgresConnection, app: String, name: PushTemplateName, logger: Logger
    ) async throws -> PushMessageTemplate? {
        try await connection.rows(
            "SELECT mesg, file, admm FROM push_message_templates WHERE app_id = \(app) AND template_name = \(name.rawValue)",
            logger: logger
        ) { row in
            let (mesg, file, admm) = try row.decode((String, String, String).self)
            return PushMessageTemplate(mesg: mesg, file: file, admm: admm)
        }.first
    }

    /// Reads, changes and writes one template of an app in one transaction, under the template's
    /// lock. A template not stored yet starts from `baseline` (the configured one) and is stored whole.
    @discardableResult
    public func updateMessageTemplate(
        app: String,
        name: PushTemplateName,
        startingFrom baseline: PushMessageTemplate,
        _ change: @escaping @Sendable (inout PushMessageTemplate) throws -> Void
    ) async throws -> PushMessageTemplate {
        try await registryWrite(app: app) { connection in
            try await connection.run(
                "SELECT pg_advisory_xact_lock(\(AdvisoryLock.template(app: app, name: name.rawValue)))", logger: logger)
            var template = try await Self.storedMessageTemplate(connection, app: app, name: name, logger: logger) ?? baseline
            try change(&template)
            try await connection.run(
                """
                INSERT INTO push_message_templates (app_id, template_name, mesg, file, admm)
                VALUES (\(app), \(name.rawValue), \(template.mesg), \(template.file), \(template.admm))
                ON CONFLICT (app_id, template_name) DO UPDATE SET mesg = EXCLUDED.mesg, file = EXCLUDED.file, admm = EXCLUDED.admm
                """, logger: logger)
            return template
        }
    }
}
