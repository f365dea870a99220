import PushCore
import PushStore
import StoreContract

// The providers the tests name. The store knows none by name: each provider's module declares its own.
extension PushProvider {
    static let apns = PushProvider("apns")
    static let fcm = PushProvider("fcm")
    static let hms = PushProvider("hms")
}

extension DeviceToken {
    /// An APNs token, the tests' usual device.
    init(token: String, registeredAtMs: Int64) {
        self.init(token: token, registeredAtMs: registeredAtMs, provider: .apns)
    }
}

/// The APNs forms, which most tests mean.
extension DeviceTokenStore {
    func registerToken(app: String, user: String, token: String, isUnique: Bool) async throws -> TokenRegistration {
        try await registerToken(app: app, user: user, token: token, isUnique: isUnique, provider: .apns)
    }

    @discardableResult
    func removeToken(app: String, user: String, token: String) async throws -> Bool {
        try await removeToken(app: app, user: user, token: token, provider: .apns)
    }

    func owner(app: String, token: String) async throws -> String? {
        try await owner(app: app, token: token, provider: .apns)
    }

    @discardableResult
    func removeTokenFromOwner(app: String, token: String) async throws -> String? {
        try await removeTokenFromOwner(app: app, token: token, provider: .apns)
    }
}
