import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The floor of a webhook's HTTP side: Hummingbird's HTTP/1.1 server on NIO, as the relay runs
/// it, with one route that reads the whole body and answers the relay's 200, and nothing else (no
/// signature, no parse, no store, no connection limits or deadlines, no metrics, no log line).
/// `bench-compare.sh` loads it with wrk and the relay's own events and counts its CPU per request
/// beside the other floors: what the relay's NIO threads and handler tasks are held to.
///
///     http-floor PORT
@main
struct HTTPFloor {
    static func main() async throws {
        guard CommandLine.arguments.count == 2, let port = Int(CommandLine.arguments[1]), (1...65535).contains(port) else {
            FileHandle.standardError.write(Data("usage: http-floor PORT (1-65535)\n".utf8))
            exit(2)
        }
        let router = Router()
        router.post("webhooks/sendbird/:app_id") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1024 * 1024)
            // The relay's answer for an 8-push event, its length read from the body so that the
            // read cannot be left out.
            let answer = ByteBuffer(string: #"{"deliveries":"# + String(body.readableBytes > 0 ? 8 : 0) + #","result":"accepted"}"#)
            var headers = HTTPFields()
            headers.append(HTTPField(name: .contentType, value: "application/json; charset=utf-8"))
            headers.append(HTTPField(name: .contentLength, value: String(answer.readableBytes)))
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: answer))
        }
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: "http-floor"),
            onServerRunning: { _ in FileHandle.standardError.write(Data("listening on \(port)\n".utf8)) })
        try await app.runService()
    }
}
