/// One app (tenant) the relay serves (`apps[]`). All stored data is scoped by `appID`.
public struct AppConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// Sendbird application id; webhooks name it in `app_id`.
    public var appID: String
    /// The master API token: authenticates REST calls (`Api-Token`) and signs webhooks.
    public var apiToken: Secret
    /// APNs delivery settings; an app without them can register tokens but gets no pushes.
    public var apns: APNsAppConfiguration?

    /// Shortest accepted API token; Sendbird's are 40 hex characters.
    public static let minimumAPITokenLength = 16

    public init(appID: String, apiToken: Secret, apns: APNsAppConfiguration? = nil) {
        self.appID = appID
        self.apiToken = apiToken
        self.apns = apns
    }

    public var description: String { "app \(appID) (api_token \(apiToken))" }
}
