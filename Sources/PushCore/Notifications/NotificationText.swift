/// What one notification shows: a title (optional) and a body, in one language.
public struct NotificationText: Sendable, Hashable {
    public var title: String?
    public var body: String

    public init(title: String? = nil, body: String) {
        self.title = title
        self.body = body
    }
}

/// A notification's text in its default language and in others, by language code: each user sees
/// the text of the first of their `preferred_languages` it has (codes compared without case), else
/// the default.
public struct NotificationTexts: Sendable, Hashable {
    public var standard: NotificationText
    /// By language code as given (`de`, `pt-BR`).
    public var translations: [String: NotificationText]

    public init(standard: NotificationText, translations: [String: NotificationText] = [:]) {
        self.standard = standard
        self.translations = translations
    }

    /// The text `languages` read: one lookup per preferred language (at most four).
    public func text(for languages: PreferredLanguages) -> NotificationText {
        guard !translations.isEmpty else { return standard }
        for code in languages.codes {
            // Sorted, so two codes differing only in case resolve the same way on every relay.
            let folded = PreferredLanguages.folded(code)
            if let match = translations.keys.sorted().first(where: { PreferredLanguages.folded($0) == folded }) {
                return translations[match]!
            }
        }
        return standard
    }

    /// Every text, the default first.
    public var all: [NotificationText] { [standard] + translations.keys.sorted().map { translations[$0]! } }
}
