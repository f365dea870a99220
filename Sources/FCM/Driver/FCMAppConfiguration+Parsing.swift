import ConfigSupport
import Foundation
import HTTP2Transport

extension FCMAppConfiguration {
    /// `apps[i].fcm`: `{service_account: PATH | {credential: NAME}, project_id?, url?, token_url?,
    /// ca_file?, pool_size?}`. The file is read (and its key checked) when the clients are built.
    public static func parse(_ map: ConfigMapping, environment: ConfigurationEnvironment) throws(ConfigurationError) -> FCMAppConfiguration
    {
        try map.allowOnly(["service_account", "project_id", "url", "token_url", "ca_file", "pool_size"])
        guard let file = try map.filePath("service_account", environment: environment) else {
            throw .missingKey(map.name("service_account"))
        }
        var config = FCMAppConfiguration(serviceAccountFile: file)
        if let project = try map.string("project_id") {
            guard !project.isEmpty, project.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }) else {
                throw .invalidValue(key: map.name("project_id"), reason: "must be a Firebase project id, e.g. my-app-1234")
            }
            config.projectID = project
        }
        if let text = try map.string("url") {
            guard let url = URL(string: text), let origin = HTTPSOrigin(url) else {
                throw .invalidValue(key: map.name("url"), reason: "must be https://HOST:PORT")
            }
            config.endpoint = TransportEndpoint(host: origin.host, port: origin.port)
        }
        if let text = try map.string("token_url") {
            guard let url = URL(string: text), url.scheme == "https", url.host?.isEmpty == false else {
                throw .invalidValue(key: map.name("token_url"), reason: "must be an https URL, e.g. https://oauth2.googleapis.com/token")
            }
            config.tokenURL = url
        }
        config.caFile = try map.filePath("ca_file", environment: environment)
        if let size = try map.poolSize() { config.poolSize = size }
        return config
    }
}
