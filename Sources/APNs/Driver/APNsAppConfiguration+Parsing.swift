import ConfigSupport
import HTTP2Transport
import Foundation
import PushCore

extension APNsAppConfiguration {
    /// `apps[i].apns` as one mapping: the app's only configuration.
    public static func parse(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError) -> APNsAppConfiguration
    {
        try map.allowOnly(connectionKeys.union(appKeys).union(presentationKeys))
        var config = try parseConnection(map, environment: environment)
        try config.readAppSettings(map)
        return config
    }

    /// The keys each configuration of a list has of its own.
    static let connectionKeys: Set<String> = ["name", "topic", "environment", "auth", "pool_size", "channel_management"]
    /// The app's keys: one payload serves every configuration, so only the default sets them.
    static let appKeys: Set<String> = [
        "badge", "default_sound", "mutable_content", "content_available", "push_admin_messages", "push_when_online",
        "require_auth_for_files", "default_expiration", "push_type", "priority",
    ]

    /// A configuration's name, topic, environment, auth and pool size.
    static func parseConnection(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> APNsAppConfiguration
    {
        let name = try map.string("name") ?? defaultName
        if let problem = nameProblem(name) { throw .invalidValue(key: map.name("name"), reason: problem) }
        guard let topic = try map.string("topic") else { throw .missingKey(map.name("topic")) }
        guard !topic.isEmpty, !topic.contains(where: \.isWhitespace) else {
            throw .invalidValue(key: map.name("topic"), reason: "must be the app's bundle id, e.g. com.example.app")
        }
        let endpoint = try parseEnvironment(map, environment: environment)
        let auth = try parseAuth(map.requiredMapping("auth"), environment: environment)
        var config = APNsAppConfiguration(topic: topic, environment: endpoint, auth: auth, name: name)
        if let size = try map.poolSize() { config.poolSize = size }
        if let text = try map.string("channel_management") {
            guard let url = URL(string: text), let origin = HTTPSOrigin(url) else {
                throw .invalidValue(key: map.name("channel_management"), reason: "must be https://HOST:PORT")
            }
            config.channelManagement = TransportEndpoint(host: origin.host, port: origin.port)
        }
        return config
    }

    /// Where its broadcast channels are managed: `channel_management`, or Apple's host of its
    /// environment; nil for a custom endpoint without one.
    public var channelManagementEndpoint: TransportEndpoint? {
        if let channelManagement { return channelManagement }
        switch environment {
        case .production: return APNsChannelManager.production
        case .sandbox: return APNsChannelManager.sandbox
        case .custom: return nil
        }
    }

    /// What is wrong with a configuration's name, if anything: it travels in registration bodies
    /// and the store, so it is short and plain.
    static func nameProblem(_ name: String) -> String? {
        let plain = name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        return plain && (1...64).contains(name.utf8.count) ? nil : "must be 1 to 64 letters, digits, '.', '_' or '-'"
    }

    /// Push type, priority, expiration and the payload options.
    mutating func readAppSettings(_ map: ConfigMapping) throws(ConfigurationError) {
        if let text = try map.string("push_type") {
            guard let type = APNsPushType(rawValue: text) else {
                throw .invalidValue(
                    key: map.name("push_type"), reason: "must be one of \(APNsPushType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            pushType = type
            options.maxPayloadBytes = type.maximumPayloadSize
        }
        if let value = try map.int("priority") {
            guard let value = APNsPriority(rawValue: value) else {
                throw .invalidValue(key: map.name("priority"), reason: "must be 10, 5 or 1")
            }
            priority = value
        }
        if let value = try map.duration("default_expiration") { defaultExpiration = value }
        if let value = try map.bool("badge") { options.badge = value }
        if let value = try map.bool("mutable_content") { options.mutableContent = value }
        if let value = try map.bool("content_available") { options.contentAvailable = value }
        if let value = try map.bool("push_admin_messages") { options.pushAdminMessages = value }
        if let value = try map.bool("push_when_online") { options.multiDevice = value }
        if let value = try map.bool("require_auth_for_files") { options.requireAuthForFiles = value }
        if let value = try map.string("default_sound") { options.defaultSound = value }
        options.presentation = try Self.parsePresentation(map)
    }

    /// `apns.environment` (`APNsEnvironmentSetting.parse`); production when absent.
    private static func parseEnvironment(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError)
        -> APNsEnvironmentSetting
    {
        guard let node = map.mapping["environment"] else { return .production }
        if case .scalar = node, try map.string("environment") == nil { return .production }  // `environment: ~`
        return try APNsEnvironmentSetting.parse(node, key: map.name("environment"), environment: environment)
    }

    /// `{token: {key_file, key_id, team_id}}` or `{certificate: {p12_file, password…} | {cert_file, key_file}}`.
    private static func parseAuth(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError) -> APNsAuthSetting
    {
        try map.allowOnly(["token", "certificate"])
        guard map.mapping.count == 1 else {
            throw .invalidValue(key: map.path, reason: "give exactly one of token or certificate")
        }
        if let token = try map.mapping("token") {
            try token.allowOnly(["key_file", "key_id", "team_id"])
            guard let file = try token.filePath("key_file", environment: environment) else { throw .missingKey(token.name("key_file")) }
            let keyID = try token.string("key_id") ?? APNsSigningKey.keyID(fromFileName: file)
            guard let keyID else { throw .missingKey(token.name("key_id")) }
            guard let teamID = try token.string("team_id") else { throw .missingKey(token.name("team_id")) }
            for (name, value) in [("key_id", keyID), ("team_id", teamID)] where !Self.isAppleIdentifier(value) {
                throw .invalidValue(key: token.name(name), reason: "must be 10 letters or digits")
            }
            return .token(keyFile: file, keyID: keyID, teamID: teamID)
        }
        guard let certificate = try map.mapping("certificate") else {
            throw .invalidValue(key: map.path, reason: "give exactly one of token or certificate")
        }
        try certificate.allowOnly(["p12_file", "password", "cert_file", "key_file"])
        if let p12 = try certificate.filePath("p12_file", environment: environment) {
            if certificate.mapping["cert_file"] != nil || certificate.mapping["key_file"] != nil {
                throw .invalidValue(key: certificate.path, reason: "give p12_file or cert_file with key_file, not both")
            }
            let password = try certificate.secret("password", environment: environment)?.0
            return .p12(file: p12, password: password)
        }
        guard let cert = try certificate.filePath("cert_file", environment: environment) else {
            throw .missingKey(certificate.name("p12_file"))
        }
        guard let key = try certificate.filePath("key_file", environment: environment) else {
            throw .missingKey(certificate.name("key_file"))
        }
        if certificate.mapping["password"] != nil {
            throw .invalidValue(key: certificate.name("password"), reason: "only a p12_file takes a password")
        }
        return .pem(certificateFile: cert, keyFile: key)
    }

    private static func isAppleIdentifier(_ value: String) -> Bool {
        value.count == 10 && value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
