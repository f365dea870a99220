import Hummingbird
import PushStore
import StoreContract

/// `/v3/users/{user_id}/push_preference`.
extension RESTAPI {
    func registerPushPreferenceRoutes(on v3: RouterGroup<RelayRequestContext>) {
        v3.get("users/:user_id/push_preference") { _, context in
            let (app, user) = try context.requireUser()
            guard let preferences = try await store.preferences(app: app.appID, user: user) else { throw APIError.notFound("User") }
            return PushPreferencesBody(preferences)
        }

        // Changes only the fields given; creates the user.
        v3.put("users/:user_id/push_preference") { request, context in
            let (app, user) = try context.requireUser()
            let update = try PushPreferencesUpdate(try await request.jsonObject(limit: bodyLimit))
            let stored = try await store.updatePreferences(app: app.appID, user: user) { preferences in
                try update.apply(to: &preferences)
            }
            return PushPreferencesBody(stored)
        }

        // Resets to the defaults. Sendbird's current doc says the answer is empty, its older
        // models return the whole object, and its SDK requires a JSON object: the relay answers
        // with the reset preferences, which satisfies all three.
        v3.delete("users/:user_id/push_preference") { _, context in
            let (app, user) = try context.requireUser()
            guard let preferences = try await store.resetPreferences(app: app.appID, user: user) else { throw APIError.notFound("User") }
            return PushPreferencesBody(preferences)
        }
    }
}
