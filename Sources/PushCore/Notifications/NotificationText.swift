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

    /// The text `languages` read (`NotificationTextIndex`, made once for many readers).
    public func text(for languages: PreferredLanguages) -> NotificationText {
        NotificationTextIndex(self).text(for: languages)
    }

    /// Every text, the default first.
    public var all: [NotificationText] { [standard] + translations.keys.sorted().map { translations[$0]! } }
}
