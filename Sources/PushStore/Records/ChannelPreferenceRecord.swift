import GRDB
import PushCore
import StoreContract

/// A row of `channel_push_preferences`.
struct ChannelPreferenceRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "channel_push_preferences"

    var appID: String
    var userID: String
    var channelURL: String
    var pushTriggerOption: String
    var pushSound: String?

    enum CodingKeys: String, CodingKey {
        case appID = "app_id", userID = "user_id", channelURL = "channel_url"
        case pushTriggerOption = "push_trigger_option", pushSound = "push_sound"
    }

    init(app: String, user: String, channel: String, preference: ChannelPushPreference) {
        appID = app
        userID = user
        channelURL = channel
        pushTriggerOption = preference.triggerOption.rawValue
        pushSound = preference.pushSound
    }

    /// The columns `init(raw:)` reads, in order.
    static let rawColumns = "app_id, user_id, channel_url, push_trigger_option, push_sound"

    init(raw row: RawStatement.Row) {
        appID = row.string(0)
        userID = row.string(1)
        channelURL = row.string(2)
        pushTriggerOption = row.string(3)
        pushSound = row.optionalString(4)
    }

    func preference() throws -> ChannelPushPreference {
        guard let trigger = ChannelPushTriggerOption(rawValue: pushTriggerOption) else {
            throw PushStoreError.corruptValue(table: Self.databaseTableName, column: "push_trigger_option", value: pushTriggerOption)
        }
        return ChannelPushPreference(triggerOption: trigger, pushSound: pushSound)
    }
}
