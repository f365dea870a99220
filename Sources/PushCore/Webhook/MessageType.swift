/// The kind of message a webhook event carries (Sendbird `type`).
public enum MessageType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A text message from a user.
    case mesg = "MESG"
    /// A file message.
    case file = "FILE"
    /// An admin message (no push unless the app enables it).
    case admm = "ADMM"
}
