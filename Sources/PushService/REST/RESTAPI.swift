import Hummingbird
import PushEngine
import PushStore
import StoreContract

/// The Sendbird-compatible REST API: users, device tokens, push preferences, template choice, app
/// templates, session tokens and secondary API tokens. Routes are registered on a group that
/// `AuthenticationMiddleware` already authenticates; each route says who may call it with one
/// of `RelayRequestContext`'s `require…` methods.
struct RESTAPI: Sendable {
    let store: any RelayStore
    /// Each app's configured templates, under the ones changed through the API.
    let templates: ConfiguredTemplates
    /// What `Api-Token` is checked against besides the master tokens, and sessions' revocations.
    let credentials: CredentialDirectory
    /// Users erased lately, whose held pushes the dispatcher drops.
    let erasedUsers: ErasedUsers
    /// Largest request body accepted.
    let bodyLimit: Int
    /// Unix milliseconds; session token expiry.
    let clock: @Sendable () -> Int64

    func register(on v3: RouterGroup<RelayRequestContext>) {
        registerUserRoutes(on: v3)
        registerDeviceTokenRoutes(on: v3)
        registerTokenOwnerRoutes(on: v3)
        registerPushConfigurationRoutes(on: v3)
        registerPushPreferenceRoutes(on: v3)
        registerChannelPushPreferenceRoutes(on: v3)
        registerPushTemplateRoutes(on: v3)
        registerMessageTemplateRoutes(on: v3)
        registerSessionTokenRoutes(on: v3)
        registerAPITokenRoutes(on: v3)
    }
}
