/// What a Live Activity token takes (ActivityKit): a push-to-start token (`Activity.pushToStartToken`,
/// per attributes type) only `event: start`; an activity's update token (`Activity.pushToken`)
/// only `update` and `end`. Neither takes an ordinary push.
public enum LiveActivityTokenKind: String, Sendable, Codable, Hashable {
    case start
    case update

    /// Whether a push of `event` (nil: not a Live Activity push) reaches it.
    func takes(_ event: String?) -> Bool {
        switch self {
        case .start: event == "start"
        case .update: event == "update" || event == "end"
        }
    }
}
