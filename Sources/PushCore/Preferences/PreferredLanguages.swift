/// A user's `preferred_languages` (Sendbird's user field, set with the Platform API's "update a
/// user"): up to four language codes, most preferred first. Sendbird: "If messages are sent in a
/// language other than the preferred languages, the notification messages will be translated into
/// the user's first preferred language. In addition, the messages translated into other preferred
/// languages will be provided in the sendbird property of a notification message payload."
///
/// The relay translates nothing itself: it shows the translation the message carries (the
/// webhook's `payload.translations`) into the reader's first preferred language, and keeps every
/// translation in `sendbird.translations`. It does not know the language a message was written
/// in, so a message written in the reader's second language still shows the translation into
/// their first when Sendbird made one.
public struct PreferredLanguages: Sendable, Hashable {
    public let codes: [String]

    public static let maximumCount = 4
    /// The longest code: BCP 47 tags used for translation are far shorter (`zh-Hant-TW`).
    public static let maximumCodeLength = 35
    public static let none = PreferredLanguages(uncheckedCodes: [])

    /// Checked codes: 1 to 35 ASCII letters, digits, `-` and `_` each (`ko`, `zh-CN`), at most
    /// four, no code twice (compared without case, as language tags are).
    public init(_ codes: [String]) throws(Problem) {
        guard codes.count <= Self.maximumCount else { throw .tooMany(codes.count) }
        for (index, code) in codes.enumerated() {
            guard (1...Self.maximumCodeLength).contains(code.utf8.count), code.utf8.allSatisfy(Self.isCodeByte) else {
                throw .notACode(index)
            }
            if codes[..<index].contains(where: { Self.same($0, code) }) { throw .repeated(index) }
        }
        self.codes = codes
    }

    private init(uncheckedCodes: [String]) { codes = uncheckedCodes }

    /// The stored form: the codes joined by commas (no code holds one), empty for none.
    public var stored: String { codes.joined(separator: ",") }

    /// From the stored form; what does not parse counts as none (a reader then sees the original).
    public init(stored: String) {
        guard !stored.isEmpty else {
            self = .none
            return
        }
        self = (try? PreferredLanguages(stored.split(separator: ",", omittingEmptySubsequences: false).map(String.init))) ?? .none
    }

    /// The text this reader's push shows: the message's translation into their first preferred
    /// language when it carries one (the code compared without case), else nil (the original).
    public func translation(in translations: MessageTranslations) -> String? {
        codes.first.flatMap(translations.text(forCode:))
    }

    static func same(_ a: String, _ b: String) -> Bool { folded(a) == folded(b) }

    /// A code with its ASCII letters lowercased: how codes are compared.
    static func folded(_ code: String) -> String {
        guard code.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return code }
        return String(decoding: code.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func isCodeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    public enum Problem: Error, Hashable, CustomStringConvertible {
        case tooMany(Int)
        case notACode(Int)
        case repeated(Int)

        public var description: String {
            switch self {
            case .tooMany(let count): "must hold at most \(PreferredLanguages.maximumCount) languages (got \(count))"
            case .notACode(let index):
                "must hold language codes such as \"ko\" or \"zh-CN\" (1 to \(PreferredLanguages.maximumCodeLength) letters, digits, - and _): item \(index) is not one"
            case .repeated(let index): "must not name a language twice: item \(index) repeats an earlier one"
            }
        }
    }
}

/// A message's `translations` indexed by language code without case, made once per event: each
/// reader's choice is then one lookup, however many translations and members the event has.
public struct MessageTranslations: Sendable {
    private let byCode: [String: String]

    public init(_ translations: [String: String]) {
        var byCode: [String: String] = [:]
        // Sorted, so two keys differing only in case resolve the same way on every relay.
        for (code, text) in translations.sorted(by: { $0.key < $1.key }) where !text.isEmpty {
            let key = PreferredLanguages.folded(code)
            if byCode[key] == nil { byCode[key] = text }
        }
        self.byCode = byCode
    }

    public var isEmpty: Bool { byCode.isEmpty }

    func text(forCode code: String) -> String? { byCode[PreferredLanguages.folded(code)] }
}
