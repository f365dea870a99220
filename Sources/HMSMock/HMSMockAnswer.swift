import Foundation
import MockSupport

/// One answer the mock writes: status, JSON body, and a Retry-After when flow control sets one.
/// (An `Error` too: the validator refuses with the answer it gets.)
struct HMSMockAnswer: Error, Sendable, Equatable, MockHTTPAnswer {
    var status: Int
    var body: Data
    var retryAfterSeconds: Int?
    /// The result code a `messages:send` answer carries (nil for the token endpoint and flow control).
    var code: HMSResultCode?

    static let contentType = "application/json;charset=UTF-8"

    /// `messages:send`'s body: `{"code":"80000000","msg":"Success","requestId":"…"}`.
    static func result(_ code: HMSResultCode, message: String? = nil, requestID: String) -> HMSMockAnswer {
        let body = jsonObject([
            ("code", quoted(code.rawValue)), ("msg", quoted(message ?? code.defaultMessage)), ("requestId", quoted(requestID)),
        ])
        return HMSMockAnswer(status: code.httpStatus, body: body, code: code)
    }

    /// 80100000: `msg` is itself JSON, `{"success":1,"failure":1,"illegal_tokens":["…"]}`.
    static func partialSuccess(delivered: Int, illegalTokens: [String], requestID: String) -> HMSMockAnswer {
        let tokens = "[" + illegalTokens.map(quoted).joined(separator: ",") + "]"
        let message = jsonObject([
            ("success", String(delivered)), ("failure", String(illegalTokens.count)), ("illegal_tokens", tokens),
        ])
        return result(.partialSuccess, message: String(decoding: message, as: UTF8.self), requestID: requestID)
    }

    /// HTTP 503, Huawei's flow control. Huawei documents the status only; the body says what it is.
    static func flowControl(retryAfterSeconds: Int?, requestID: String) -> HMSMockAnswer {
        let body = jsonObject([("msg", quoted("Flow control: too many requests")), ("requestId", quoted(requestID))])
        return HMSMockAnswer(status: 503, body: body, retryAfterSeconds: retryAfterSeconds)
    }

    /// The token endpoint's success: `{"access_token","expires_in","token_type":"Bearer"}`.
    static func accessToken(_ token: String, expiresIn: Int) -> HMSMockAnswer {
        let body = jsonObject([("access_token", quoted(token)), ("expires_in", String(expiresIn)), ("token_type", quoted("Bearer"))])
        return HMSMockAnswer(status: 200, body: body)
    }

    /// The token endpoint's refusal (Huawei Account Kit's server error codes): HTTP 400,
    /// `{"error":1101,"sub_error":12304,"error_description":"invalid client_secret"}`.
    static func tokenRefused(_ refusal: TokenRefusal) -> HMSMockAnswer {
        let body = jsonObject([
            ("error", "1101"), ("sub_error", String(refusal.rawValue)), ("error_description", quoted(refusal.description)),
        ])
        return HMSMockAnswer(status: 400, body: body)
    }

    /// The token endpoint's flow control: HTTP 503 in Account Kit's status table (which names no body code).
    static let tokenEndpointUnavailable = HMSMockAnswer(
        status: 503, body: jsonObject([("error_description", quoted("flow control: try again later"))]))

    /// A path neither endpoint serves (HTTP 404, "service not found").
    static func notFound(_ path: String) -> HMSMockAnswer {
        HMSMockAnswer(status: 404, body: jsonObject([("msg", quoted("no service at \(path.prefix(200))"))]))
    }

    static func methodNotAllowed(_ path: String) -> HMSMockAnswer {
        HMSMockAnswer(status: 405, body: jsonObject([("msg", quoted("\(path.prefix(200)) takes POST"))]))
    }

    /// Why the token endpoint refuses, as Account Kit's sub-error codes (main code 1101).
    enum TokenRefusal: Int, Sendable, CustomStringConvertible {
        case wrongClientSecret = 12304
        case malformedClientID = 20002
        case unknownClientID = 20003
        case emptyClientSecret = 20171
        case wrongGrantType = 20182

        var description: String {
            switch self {
            case .wrongClientSecret: "invalid client_secret"
            case .malformedClientID: "invalid client_id"
            case .unknownClientID: "client_id does not exist"
            case .emptyClientSecret: "client_secret is empty"
            case .wrongGrantType: "invalid grant_type"
            }
        }
    }

    /// Members in the order given: Huawei writes `code` first, as the tests and people reading the record expect.
    private static func jsonObject(_ members: [(String, String)]) -> Data {
        Data(("{" + members.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}").utf8)
    }

    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
