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

    /// zlib counts input and output in 32 bits: larger buffers are fed in pieces of this size.
    static let piece = Int(UInt32.max / 2)

    /// Inflates `data`, refusing to produce more than `limit` bytes.
    public static func inflate(_ data: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard wb_inflate_init_raw(&stream) == Z_OK else { throw .corrupt("zlib would not start") }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        output.reserveCapacity(min(max(0, limit), max(1024, data.count * 3)))
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var status: Int32 = Z_OK
        var failure: Failure?
        data.withUnsafeBufferPointer { input in
            var fed = 0
            while status == Z_OK {
                if stream.avail_in == 0 && fed < input.count {
                    let size = min(piece, input.count - fed)
                    stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + fed)
                    stream.avail_in = uInt(size)
                    fed += size
                }
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
                if produced > limit - output.count {
                    failure = .tooLarge(limit: limit)
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_OK && stream.avail_in == 0 && fed == input.count && produced == 0 {
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
                // In pieces zlib's 32-bit counters can hold; the bound leaves room for all of it.
                var fed = 0, made = 0
                var status = Z_OK
                repeat {
                    let size = min(piece, input.count - fed)
                    stream.next_in = size > 0 ? UnsafeMutablePointer(mutating: input.baseAddress! + fed) : nil
                    stream.avail_in = uInt(size)
                    fed += size
                    let room = min(piece, out.count - made)
                    stream.next_out = out.baseAddress.map { $0 + made }
                    stream.avail_out = uInt(room)
                    status = CZlib.deflate(&stream, fed == input.count ? Z_FINISH : Z_NO_FLUSH)
                    made += room - Int(stream.avail_out)
                    fed -= Int(stream.avail_in)
                } while status == Z_OK && made < out.count
                return made
            }
        }
        output.removeSubrange(written...)
        return output
    }
}
