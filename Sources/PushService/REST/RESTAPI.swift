import Hummingbird
import PushStore

/// The Sendbird-compatible REST API: device tokens, push preferences, template choice and app
/// templates. Routes are registered on a group that `APITokenMiddleware` already authenticates.
struct RESTAPI: Sendable {
    let store: PushStore
    /// Each app's configured templates, under the ones changed through the API.
    let templates: ConfiguredTemplates
    /// Largest request body accepted.
    let bodyLimit: Int

    func register(on v3: RouterGroup<RelayRequestContext>) {
        registerDeviceTokenRoutes(on: v3)
        registerPushPreferenceRoutes(on: v3)
        registerChannelPushPreferenceRoutes(on: v3)
        registerPushTemplateRoutes(on: v3)
        registerMessageTemplateRoutes(on: v3)
    }
}
