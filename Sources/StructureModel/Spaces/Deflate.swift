import CZlib

/// Raw DEFLATE (RFC 1951: no zlib header, no checksum), as the Hyperbasis SDK stores world
/// maps through Apple's `COMPRESSION_ZLIB`.
public enum RawDeflate {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a valid DEFLATE stream (zlib's message).
        case corrupt(String)
        /// The stream ends before its last block.
        case truncated
        /// Inflating would exceed the cap: a decompression bomb, or more than a reader allows.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .corrupt(let message): return "not raw DEFLATE data (\(message))"
            case .truncated: return "the DEFLATE data ends early (truncated)"
            case .tooLarge(let limit): return "inflates to more than \(limit) bytes (a decompression bomb?)"
            }
        }
    }

    /// Inflates `data`, refusing to produce more than `limit` bytes.
    public static func inflate(_ data: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard wb_inflate_init_raw(&stream) == Z_OK else { throw .corrupt("zlib would not start") }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        output.reserveCapacity(min(limit, max(1024, data.count * 3)))
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var status: Int32 = Z_OK
        var failure: Failure?
        data.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while status == Z_OK {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END {
                    if status == Z_BUF_ERROR {
                        failure = .truncated
                    } else {
                        failure = .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
                    }
                    return
                }
                if output.count + produced > limit {
                    failure = .tooLarge(limit: limit)
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_OK && stream.avail_in == 0 && produced == 0 {
                    failure = .truncated
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Deflates at zlib level 5, the configuration Apple's `COMPRESSION_ZLIB` uses.
    public static func deflate(_ data: [UInt8], level: Int32 = 5) -> [UInt8] {
        var stream = z_stream()
        guard wb_deflate_init_raw(&stream, level) == Z_OK else { return [] }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let written: Int = data.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                _ = CZlib.deflate(&stream, Z_FINISH)
                return out.count - Int(stream.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }
}
