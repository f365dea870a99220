import GRDB
import PushCore

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

    func preference() throws -> ChannelPushPreference {
        guard let trigger = ChannelPushTriggerOption(rawValue: pushTriggerOption) else {
            throw PushStoreError.corruptValue(table: Self.databaseTableName, column: "push_trigger_option", value: pushTriggerOption)
        }
        return ChannelPushPreference(triggerOption: trigger, pushSound: pushSound)
    }
}
