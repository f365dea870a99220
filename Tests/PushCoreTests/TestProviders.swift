import PushCore

// The providers the tests name. PushCore knows none by name: each provider's module declares its own.
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

extension PushPlanner {
    /// An app that pushes through APNs only.
    init(options: AppPushOptions = .defaults, templates: PushTemplateSet = .sendbirdDefaults) {
        self.init(options: options, templates: templates, formats: [.apns: .notification])
    }
}
