import Hummingbird
import PushStore

/// `/v3/users/{user_id}/push_preference/{channel_url}`; the channel URL is percent-decoded.
extension RESTAPI {
    func registerChannelPushPreferenceRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("users/:user_id/push_preference/:channel_url") { _, context in
            let (app, user) = try context.requireUser()
            let channel = try PathParameter.decoded("channel_url", from: context)
            guard let preference = try await store.channelPreference(app: app.appID, user: user, channel: channel) else {
                throw APIError.notFound("User")
            }
            return JSONResponse.make(ChannelPushPreferenceBody(preference))
        }

        v3.put("users/:user_id/push_preference/:channel_url") { request, context in
            let (app, user) = try context.requireUser()
            let channel = try PathParameter.decoded("channel_url", from: context)
            let update = try ChannelPushPreferenceUpdate(try await request.jsonObject(limit: bodyLimit))
            let stored = try await store.updateChannelPreference(app: app.appID, user: user, channel: channel) { preference in
                update.apply(to: &preference)
            }
            return JSONResponse.make(ChannelPushPreferenceBody(stored))
        }
    }
}
