import PushCore
import Synchronization

/// Each app's configured push templates (`apps[].templates`), replaced as a whole by SIGHUP.
///
/// The webhook and the REST API read them per request, so a reload applies to the next event
/// and the next `GET …/message_templates`; events already accepted keep the text they were
/// rendered with (their payloads are stored).
public final class ConfiguredTemplates: Sendable {
    private let byApp: Mutex<[String: PushTemplateSet]>

    public init(apps: [AppConfiguration]) {
        byApp = Mutex(Self.index(apps))
    }

    /// The app's templates; Sendbird's texts for an app the configuration does not name.
    public func templates(forApp appID: String) -> PushTemplateSet {
        byApp.withLock { $0[appID] } ?? .sendbirdDefaults
    }

    public func replace(with apps: [AppConfiguration]) {
        let fresh = Self.index(apps)
        byApp.withLock { $0 = fresh }
    }

    private static func index(_ apps: [AppConfiguration]) -> [String: PushTemplateSet] {
        Dictionary(apps.map { ($0.appID, $0.templates) }, uniquingKeysWith: { first, _ in first })
    }
}
