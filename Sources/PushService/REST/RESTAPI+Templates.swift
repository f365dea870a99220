import Hummingbird
import PushCore
import PushStore
import StoreContract

/// The user's template choice (`/v3/users/{user_id}/push/template`) and the app's templates
/// (`/v3/applications/push/message_templates…`). An app's template is the one last written
/// here, else the configured one (`apps[].templates`), else Sendbird's texts.
extension RESTAPI {
    func registerPushTemplateRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("users/:user_id/push/template") { _, context in
            let (app, user) = try context.requireUser()
            guard let name = try await store.pushTemplateName(app: app.appID, user: user) else { throw APIError.notFound("User") }
            return ["name": name.rawValue]
        }

        v3.put("users/:user_id/push/template") { request, context in
            let (app, user) = try context.requireUser()
            let body = try await request.jsonObject(limit: bodyLimit)
            guard let name = try body.choice("name", { PushTemplateName(rawValue: $0) }, allowed: PushTemplateName.allCases.map(\.rawValue))
            else { throw APIError.missing("name") }
            try await store.setPushTemplateName(app: app.appID, user: user, name)
            return ["name": name.rawValue]
        }
    }

    func registerMessageTemplateRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("applications/push/message_templates") { _, context in
            let app = try context.requireApp()
            let effective = templates.templates(forApp: app.appID).replacing(try await store.storedMessageTemplates(app: app.appID))
            return MessageTemplatesBody(PushTemplateName.allCases.map { ($0, effective.template(named: $0)) })
        }

        v3.get("applications/push/message_templates/:template_name") { _, context in
            let app = try context.requireApp()
            let name = try Self.templateName(context)
            let template =
                try await store.storedMessageTemplate(app: app.appID, name: name)
                ?? templates.templates(forApp: app.appID).template(named: name)
            return MessageTemplatesBody([(name, template)])
        }

        v3.put("applications/push/message_templates/:template_name") { request, context in
            let app = try context.requireApp()
            let name = try Self.templateName(context)
            let update = try MessageTemplateUpdate(try await request.jsonObject(limit: bodyLimit))
            let configured = templates.templates(forApp: app.appID).template(named: name)
            let stored = try await store.updateMessageTemplate(app: app.appID, name: name, startingFrom: configured) { template in
                update.apply(to: &template)
            }
            return MessageTemplatesBody([(name, stored)])
        }
    }

    /// `default` or `alternative`; any other name is a template that does not exist (400201).
    static func templateName(_ context: RelayRequestContext) throws(APIError) -> PushTemplateName {
        let raw = try RequestParameter.decoded("template_name", from: context)
        guard let name = PushTemplateName(rawValue: raw) else { throw APIError.notFound("Template \(raw)") }
        return name
    }
}
