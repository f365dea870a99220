import ConfigSupport
import Foundation

extension HMSAppConfiguration {
    /// `apps[i].hms`: `{app_id, client_secret, url?, token_url?, ca_file?, pool_size?}`.
    public static func parse(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError) -> HMSAppConfiguration
    {
        try map.allowOnly(["app_id", "client_secret", "url", "token_url", "ca_file", "pool_size"])
        guard let appID = try map.string("app_id") else { throw .missingKey(map.name("app_id")) }
        guard !appID.isEmpty, appID.utf8.count <= 64, appID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
            throw .invalidValue(key: map.name("app_id"), reason: "must be the AppGallery Connect app id, e.g. 104783201")
        }
        guard let secret = try map.secret("client_secret", environment: environment)?.0 else {
            throw .missingKey(map.name("client_secret"))
        }
        guard !secret.value.isEmpty else { throw .invalidValue(key: map.name("client_secret"), reason: "must not be empty") }
        var config = HMSAppConfiguration(appID: appID, clientSecret: secret)
        if let text = try map.string("url") {
            guard let url = URL(string: text), HTTPSOrigin(url) != nil else {
                throw .invalidValue(key: map.name("url"), reason: "must be https://HOST[:PORT]")
            }
            config.endpoint = url
        }
        if let text = try map.string("token_url") {
            guard let url = URL(string: text), url.scheme == "https", url.host?.isEmpty == false else {
                throw .invalidValue(
                    key: map.name("token_url"), reason: "must be an https URL, e.g. https://oauth-login.cloud.huawei.com/oauth2/v3/token")
            }
            config.tokenURL = url
        }
        config.caFile = try map.filePath("ca_file", environment: environment)
        if let size = try map.poolSize() { config.poolSize = size }
        return config
    }
}
