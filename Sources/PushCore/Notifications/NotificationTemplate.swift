/// An app's notification template: texts per language with `{variable}` placeholders, filled in
/// from a request's `variables`. A placeholder the request does not fill is refused (the request,
/// not a user's push, says what is missing); `{{` and `}}` write a brace.
public struct NotificationTemplate: Sendable, Hashable {
    public var texts: NotificationTexts

    public init(texts: NotificationTexts) {
        self.texts = texts
    }

    public enum Problem: Error, Hashable {
        /// A placeholder without a value.
        case missingVariable(String)
        /// A `{` without its `}`.
        case unclosedPlaceholder
    }

    /// The texts with every placeholder filled in.
    public func render(_ variables: [String: String]) throws(Problem) -> NotificationTexts {
        func fill(_ text: NotificationText) throws(Problem) -> NotificationText {
            NotificationText(
                title: try text.title.map { (t: String) throws(Problem) in try Self.fill(t, variables) },
                body: try Self.fill(text.body, variables))
        }
        var translations: [String: NotificationText] = [:]
        for (code, text) in texts.translations { translations[code] = try fill(text) }
        return NotificationTexts(standard: try fill(texts.standard), translations: translations)
    }

    /// The names of the placeholders in every text.
    public var variableNames: Set<String> {
        var names = Set<String>()
        for text in texts.all {
            for part in [text.title, text.body].compactMap({ $0 }) {
                _ = try? Self.fill(part, [:]) { names.insert($0) }
            }
        }
        return names
    }

    static func fill(_ text: String, _ variables: [String: String], seen: ((String) -> Void)? = nil) throws(Problem) -> String {
        guard text.contains("{") || text.contains("}") else { return text }
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "{", next < text.endIndex, text[next] == "{" {
                out.append("{")
                index = text.index(after: next)
            } else if character == "}", next < text.endIndex, text[next] == "}" {
                out.append("}")
                index = text.index(after: next)
            } else if character == "{" {
                guard let close = text[next...].firstIndex(of: "}") else { throw .unclosedPlaceholder }
                let name = String(text[next..<close])
                if let seen {
                    seen(name)
                } else {
                    guard let value = variables[name] else { throw .missingVariable(name) }
                    out.append(value)
                }
                index = text.index(after: close)
            } else {
                out.append(character)
                index = next
            }
        }
        return out
    }
}
