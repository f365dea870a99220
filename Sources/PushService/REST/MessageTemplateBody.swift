import Hummingbird
import PushCore

/// `{"push_message_templates": [{"template_name": …, "template": {"MESG", "FILE", "ADMM"}}]}`,
/// the answer of every app-template endpoint (one element for a single template).
struct MessageTemplatesBody: ResponseEncodable {
    struct Item: Encodable {
        var templateName: String
        var template: Texts
        enum CodingKeys: String, CodingKey { case templateName = "template_name", template }
    }

    struct Texts: Encodable {
        var mesg: String, file: String, admm: String
        enum CodingKeys: String, CodingKey { case mesg = "MESG", file = "FILE", admm = "ADMM" }
    }

    var pushMessageTemplates: [Item]
    enum CodingKeys: String, CodingKey { case pushMessageTemplates = "push_message_templates" }

    init(_ templates: [(PushTemplateName, PushMessageTemplate)]) {
        pushMessageTemplates = templates.map { name, template in
            Item(templateName: name.rawValue, template: Texts(mesg: template.mesg, file: template.file, admm: template.admm))
        }
    }
}

/// A parsed `PUT /v3/applications/push/message_templates/{template_name}` body:
/// `{"template": {"MESG"?, "FILE"?, "ADMM"?}}`; keys not given keep their text.
struct MessageTemplateUpdate: Sendable {
    var mesg: String?
    var file: String?
    var admm: String?

    static let maximumTextBytes = TextLimits.templateBytes

    init(_ body: JSONObject) throws(APIError) {
        guard let template = try body.object("template") else { throw .missing("template") }
        func text(_ key: String) throws(APIError) -> String? {
            guard let value = try template.string(key) else { return nil }
            guard !value.isEmpty, value.utf8.count <= Self.maximumTextBytes else {
                throw .tooLong(template.name(key), maximumBytes: Self.maximumTextBytes)
            }
            return value
        }
        mesg = try text("MESG")
        file = try text("FILE")
        admm = try text("ADMM")
    }

    func apply(to template: inout PushMessageTemplate) {
        if let mesg { template.mesg = mesg }
        if let file { template.file = file }
        if let admm { template.admm = admm }
    }
}
