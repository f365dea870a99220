/// A notification's texts indexed by language code without case, made once per batch: each
/// reader's choice is then one lookup per preferred language (at most four), however many
/// translations and readers there are.
public struct NotificationTextIndex: Sendable {
    public let standard: NotificationText
    private let byCode: [String: NotificationText]

    public init(_ texts: NotificationTexts) {
        standard = texts.standard
        var byCode: [String: NotificationText] = [:]
        // Sorted, so two codes differing only in case resolve the same way on every relay.
        for (code, text) in texts.translations.sorted(by: { $0.key < $1.key }) {
            let key = PreferredLanguages.folded(code)
            if byCode[key] == nil { byCode[key] = text }
        }
        self.byCode = byCode
    }

    /// The first of `languages` the notification has a text in, else the default.
    public func text(for languages: PreferredLanguages) -> NotificationText {
        guard !byCode.isEmpty else { return standard }
        for code in languages.codes {
            if let text = byCode[PreferredLanguages.folded(code)] { return text }
        }
        return standard
    }
}
