import GRDB
import PushCore

/// A row of `push_message_templates`.
struct MessageTemplateRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "push_message_templates"

    var appID: String
    var templateName: String
    var mesg: String
    var file: String
    var admm: String

    enum CodingKeys: String, CodingKey {
        case appID = "app_id", templateName = "template_name", mesg, file, admm
    }

    init(app: String, name: PushTemplateName, template: PushMessageTemplate) {
        appID = app
        templateName = name.rawValue
        mesg = template.mesg
        file = template.file
        admm = template.admm
    }

    var template: PushMessageTemplate { PushMessageTemplate(mesg: mesg, file: file, admm: admm) }
}
