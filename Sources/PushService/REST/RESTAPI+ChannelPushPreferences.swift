import Hummingbird
import PushCore
import PushStore
import StoreContract

/// `/v3/users/{user_id}/push_preference/{channel_url}`; the channel URL is percent-decoded.
extension RESTAPI {
    func registerChannelPushPreferenceRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("users/:user_id/push_preference/:channel_url") { _, context in
            let (app, user) = try context.requireUser()
            let channel = try RequestParameter.decoded("channel_url", from: context)
            guard let preference = try await store.channelPreference(app: app.appID, user: user, channel: channel) else {
                throw APIError.notFound("User")
            }
            return ChannelPushPreferenceBody(preference)
        }

        v3.put("users/:user_id/push_preference/:channel_url") { request, context in
            let (app, user) = try context.requireUser()
            let channel = try RequestParameter.decoded("channel_url", from: context)
            let update = try ChannelPushPreferenceUpdate(try await request.jsonObject(limit: bodyLimit))
            let stored: ChannelPushPreference
            do {
                stored = try await store.updateChannelPreference(
                    app: app.appID, user: user, channel: channel, maximumPerUser: app.limits.maxChannelPreferencesPerUser
                ) { preference in
                    update.apply(to: &preference)
                }
            } catch PushStoreError.limitReached(let what, let limit) {
                throw APIError(
                    code: .invalidLength,
                    message: "Invalid value: the user already holds \(limit) \(what), "
                        + "the most this app allows (apps[].limits.max_channel_preferences_per_user).")
            }
            return ChannelPushPreferenceBody(stored)
        }
    }
}
