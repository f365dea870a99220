import Hummingbird
import PushCore

/// A parsed `PUT /v3/users/{user_id}/push_preference/{channel_url}` body.
///
/// - `push_trigger_option`: `default`, `all`, `mention_only`, `off`; also `"false"`, which
///   Sendbird's Python SDK offers instead of `off`, meaning `off`.
/// - `enable` (deprecated): `false` means `off`; `true` alone turns an `off` channel back to
///   `default` and leaves any other option as it is.
/// - `push_sound`: the channel's sound; `""` removes the override.
/// One of `push_trigger_option` and `enable` is required (Sendbird requires the option).
struct ChannelPushPreferenceUpdate: Sendable {
    var triggerOption: ChannelPushTriggerOption?
    var enable: Bool?
    var pushSound: String?

    static let allowedOptions = ChannelPushTriggerOption.allCases.map(\.rawValue) + ["false"]

    init(_ body: JSONObject) throws(APIError) {
        triggerOption = try body.choice(
            "push_trigger_option",
            { $0 == "false" ? .off : ChannelPushTriggerOption(rawValue: $0) },
            allowed: Self.allowedOptions)
        enable = try body.bool("enable")
        if let sound = try body.string("push_sound") {
            guard sound.utf8.count <= PushPreferencesUpdate.maximumSoundBytes else {
                throw .tooLong("push_sound", maximumBytes: PushPreferencesUpdate.maximumSoundBytes)
            }
            pushSound = sound
        }
        guard triggerOption != nil || enable != nil else { throw .missing("push_trigger_option") }
    }

    func apply(to preference: inout ChannelPushPreference) {
        if let triggerOption { preference.triggerOption = triggerOption }
        if enable == false {
            preference.triggerOption = .off
        } else if enable == true, triggerOption == nil, preference.triggerOption == .off {
            preference.triggerOption = .default
        }
        if let pushSound { preference.pushSound = pushSound.isEmpty ? nil : pushSound }
    }
}

/// The wire form of a channel preference. `push_sound` is `""` when the channel has no sound
/// of its own (Sendbird's SDK model does not allow null there).
struct ChannelPushPreferenceBody: ResponseEncodable {
    var pushTriggerOption: String
    var pushSound: String
    var enable: Bool

    enum CodingKeys: String, CodingKey {
        case pushTriggerOption = "push_trigger_option", pushSound = "push_sound", enable
    }

    init(_ preference: ChannelPushPreference) {
        pushTriggerOption = preference.triggerOption.rawValue
        pushSound = preference.pushSound ?? ""
        enable = preference.enable
    }
}
