import GRDB
import PushCore
import StoreContract

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

    /// The columns `init(raw:)` reads, in order.
    static let rawColumns = "app_id, template_name, mesg, file, admm"

    init(raw row: RawStatement.Row) {
        appID = row.string(0)
        templateName = row.string(1)
        mesg = row.string(2)
        file = row.string(3)
        admm = row.string(4)
    }

    var template: PushMessageTemplate { PushMessageTemplate(mesg: mesg, file: file, admm: admm) }
}
