import CWebSockets
import Foundation
import ServiceSupport
import Synchronization

/// The page and its WebSocket, served by libwebsockets on a thread of its own.
///
/// Only that thread touches libwebsockets and the connections; it meets the bus thread in
/// ``ViewHub``. The bus side calls ``wake()`` (`lws_cancel_service`, safe from any thread)
/// when a frame or an inspector batch is ready, and every connection is asked to write. A
/// connection sends at most one message per writable callback and never queues frames: when its
/// socket is slow it is simply not writable, and when it is writable again it gets the newest
/// frame in one packet: the tiles it lacks that still show (``TileChain``), skipping the frames
/// in between.
///
/// Access: `/`, `/app.js` and `/style.css` need the token (`?token=` or the cookie set with
/// the page), else 403; the WebSocket (`/ws?token=`) needs it too and an `Origin` equal to
/// `http://<Host>`. A page's message that is malformed, oversized, unknown or binary closes
/// its connection with the reason.
final class WebServer: @unchecked Sendable {
    /// The WebSocket subprotocol a page asks for.
    static let protocolName = "uibus-view"
    static let cookieName = "uibus_view"

    let hub: ViewHub
    private let token: String
    private let pageDirectory: String
    /// The scene's JSON, sent with the hello (the page places its memo editor with it).
    private let sceneJSON: String
    private var context: OpaquePointer?
    private var protocols: UnsafeMutablePointer<lws_protocols>?
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)
    /// The open WebSocket connections, by their lws handle (web thread only).
    private var connections: [OpaquePointer: Connection] = [:]
    private var sendBuffer: [UInt8] = []
    /// The port it listens on (the chosen one when asked for 0).
    private(set) var port: Int32 = 0

    private final class Connection {
        let session: String
        var helloSent = false
        var cursor: ViewHub.Cursor
        var message: [UInt8] = []
        /// Why the page is being closed: sent in the close frame at the next writable callback.
        var closing: PageMessageError?

        init(session: String, batch: UInt64) {
            self.session = session
            self.cursor = ViewHub.Cursor(batch: batch)
        }
    }

    private static let files: [String: (file: String, mime: String)] = [
        "/": ("index.html", "text/html; charset=utf-8"), "/index.html": ("index.html", "text/html; charset=utf-8"),
        "/app.js": ("app.js", "text/javascript; charset=utf-8"), "/style.css": ("style.css", "text/css; charset=utf-8"),
    ]

    init(hub: ViewHub, token: String, pageDirectory: String, sceneJSON: String) {
        self.hub = hub
        self.token = token
        self.pageDirectory = pageDirectory
        self.sceneJSON = sceneJSON
    }

    /// Binds `host`:`port` and starts serving on the web thread.
    ///
    /// - Throws: ``ViewError`` if the address cannot be bound.
    func start(host: String, port: Int) throws {
        lws_set_log_level(LLL_ERR | LLL_WARN, nil)
        var protocols: UnsafeMutablePointer<lws_protocols>?
        let context = cws_create_server(
            host, Int32(port), Self.protocolName,
            { wsi, reason, user, input, length in
                guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
                    return 0
                }
                let server = Unmanaged<WebServer>.fromOpaque(owner).takeUnretainedValue()
                return server.handle(wsi, reason, user, input, length)
            }, Unmanaged.passUnretained(self).toOpaque(), PageMessage.maximumBytes + 1024, &protocols)
        guard let context else { throw ViewError("cannot listen on \(host):\(port)") }
        self.context = context
        self.protocols = protocols
        self.port = cws_port(context)
        nonisolated(unsafe) let serviced = context
        let thread = Thread { [self] in
            while !self.stopping.withLock({ $0 }) {
                if lws_service(serviced, 0) < 0 { break }
            }
            self.finished.signal()
        }
        thread.name = "uibus-view.web"
        thread.start()
    }

    /// Asks every connection to write what is new; safe from any thread.
    func wake() {
        if let context = self.context { lws_cancel_service(context) }
    }

    /// Stops the web thread, closes every connection and frees the context.
    func stop() {
        guard let context = self.context else { return }
        self.stopping.withLock { $0 = true }
        lws_cancel_service(context)
        self.finished.wait()
        lws_context_destroy(context)
        free(self.protocols)
        self.context = nil
    }

    private func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_HTTP:
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            return self.serve(wsi, path: path)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            if let refusal = self.refusal(wsi, websocket: true) {
                self.hub.count("websockets_refused")
                Log.error("uibus-view", "WebSocket refused: \(refusal)")
                return 1
            }
            return 0
        case LWS_CALLBACK_ESTABLISHED:
            let session = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16)
            self.connections[wsi] = Connection(session: session, batch: self.hub.lastBatch)
            self.hub.sessionOpened(session)
            lws_callback_on_writable(wsi)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let connection = self.connections[wsi] else { return -1 }
            return self.receive(wsi, connection, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let connection = self.connections[wsi] else { return 0 }
            return self.write(wsi, connection)
        case LWS_CALLBACK_CLOSED:
            if let connection = self.connections.removeValue(forKey: wsi) {
                self.hub.sessionClosed(connection.session, tNs: nil)
                self.hub.count("pages_disconnected")
            }
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            if let protocols = self.protocols {
                lws_callback_on_writable_all_protocol(lws_get_context(wsi), protocols + 1)
            }
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    // MARK: - HTTP

    private func serve(_ wsi: OpaquePointer, path: String) -> Int32 {
        if let refusal = self.refusal(wsi, websocket: false) {
            self.hub.count("pages_refused")
            Log.error("uibus-view", "page refused: \(refusal)")
            return self.status(wsi, 403, "403 Forbidden: this page needs its token (see deploy/uibus up)")
        }
        guard let (file, mime) = Self.files[path] else { return self.status(wsi, 404, "404 Not Found") }
        let cookie = "\(Self.cookieName)=\(self.token); HttpOnly; SameSite=Strict; Path=/"
        let result = cws_serve_file(wsi, self.pageDirectory + "/" + file, mime, cookie)
        if result < 0 || (result > 0 && cws_transaction_completed(wsi) != 0) { return -1 }
        return 0
    }

    private func status(_ wsi: OpaquePointer, _ code: UInt32, _ text: String) -> Int32 {
        _ = cws_http_status(wsi, code, text)
        return cws_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Why a request may not proceed, or nil: no valid token (query or cookie) or, for the
    /// WebSocket, an `Origin` other than this server.
    private func refusal(_ wsi: OpaquePointer, websocket: Bool) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        var given: String?
        // The value starts after the name inside the buffer, where the returned pointer points.
        if let value = lws_get_urlarg_by_name(wsi, "token=", &buffer, Int32(buffer.count)) {
            given = String(cString: value)
        } else {
            var size = buffer.count
            if lws_http_cookie_get(wsi, Self.cookieName, &buffer, &size) == 0 { given = String(cString: buffer) }
        }
        guard let given else { return "no token" }
        guard AccessToken.matches(given, self.token) else { return "wrong token" }
        guard websocket else { return nil }
        let originLength = cws_header(wsi, CWS_TOKEN_ORIGIN, &buffer, Int32(buffer.count))
        guard originLength > 0 else { return "no Origin" }
        let origin = String(cString: buffer)
        guard cws_header(wsi, CWS_TOKEN_HOST, &buffer, Int32(buffer.count)) > 0 else { return "no Host" }
        let host = String(cString: buffer)
        guard origin == "http://" + host else { return "Origin \(origin.prefix(80)) is not http://\(host.prefix(80))" }
        return nil
    }

    // MARK: - WebSocket

    private func receive(
        _ wsi: OpaquePointer, _ connection: Connection, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        guard connection.closing == nil else { return 0 }
        if lws_frame_is_binary(wsi) != 0 {
            return self.close(wsi, connection, PageMessageError(.binary, "pages send text messages"))
        }
        if lws_is_first_fragment(wsi) != 0 { connection.message.removeAll(keepingCapacity: true) }
        guard connection.message.count + length <= PageMessage.maximumBytes else {
            return self.close(
                wsi, connection, PageMessageError(.oversized, "more than \(PageMessage.maximumBytes) bytes"))
        }
        if let input, length > 0 {
            connection.message.append(contentsOf: UnsafeRawBufferPointer(start: input, count: length))
        }
        guard lws_is_final_fragment(wsi) != 0, lws_remaining_packet_payload(wsi) == 0 else { return 0 }
        do {
            let message = try connection.message.withUnsafeBytes { try PageMessage.parse($0) }
            try self.hub.received(message, from: connection.session)
        } catch let error as PageMessageError {
            return self.close(wsi, connection, error)
        } catch {
            return self.close(wsi, connection, PageMessageError(.malformed, "\(error)"))
        }
        return 0
    }

    /// Closes a connection for a bad message, with the reason, counted by kind. The close frame
    /// goes out from the writable callback: a frame still being sent to the page would otherwise
    /// stand in its way and the page would see the connection drop without a reason (1006).
    private func close(_ wsi: OpaquePointer, _ connection: Connection, _ error: PageMessageError) -> Int32 {
        self.hub.count("closed_\(error.code.rawValue)")
        Log.error("uibus-view", "closing page \(connection.session): \(error)")
        connection.closing = error
        lws_callback_on_writable(wsi)
        // A page that never reads is never writable: it is dropped without the frame after 2 s.
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, 2)
        return 0
    }

    /// Sends the one most important thing due: the hello, then what ``ViewHub/next(_:)`` says.
    private func write(_ wsi: OpaquePointer, _ connection: Connection) -> Int32 {
        if let error = connection.closing {
            cws_close_reason(wsi, error.description)
            return -1
        }
        var sent: Int32 = 0
        if !connection.helloSent {
            connection.helloSent = true
            let hello = #"{"type":"hello","session":"\#(connection.session)","device":"web-\#(connection.session)","#
            sent = self.send(wsi, Array((hello + #""scene":"# + self.sceneJSON + "}").utf8), binary: false)
        } else if let outgoing = self.hub.next(&connection.cursor) {
            switch outgoing {
            case .frame(let packet, let skipped):
                if skipped > 0 { self.hub.count("frames_skipped", skipped) }
                self.hub.count("frames_sent")
                sent = self.send(wsi, packet, binary: true)
            case .batch(let bytes, let skipped):
                if skipped > 0 { self.hub.count("batches_skipped", Int(skipped)) }
                sent = self.send(wsi, bytes, binary: false)
            }
        } else {
            return 0
        }
        guard sent >= 0 else { return -1 }
        // More may be due; lws calls back once this message has left.
        lws_callback_on_writable(wsi)
        return 0
    }

    private func send(_ wsi: OpaquePointer, _ bytes: [UInt8], binary: Bool) -> Int32 {
        let pre = Int(CWS_PRE)
        if self.sendBuffer.count < pre + bytes.count {
            self.sendBuffer = [UInt8](repeating: 0, count: pre + bytes.count)
        }
        return self.sendBuffer.withUnsafeMutableBufferPointer { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[pre..<(pre + bytes.count)]).initialize(from: bytes)
            let result = lws_write(
                wsi, buffer.baseAddress! + pre, bytes.count, binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT)
            return result < 0 ? -1 : 0
        }
    }
}
