/// What a ``BlurKernel`` does to an image.
public enum BlurMode: Sendable, Hashable {
    /// CIGaussianBlur behind a clamp: the image is padded by replicated edge pixels, blurred
    /// with a Gaussian of standard deviation `sigma` pixels, and cropped, so edges never fade.
    /// Approximated by a peaked box and a cascade of extended (fractional) boxes, O(1) work per
    /// pixel.
    case gaussian(sigma: Double)
    /// SABlurImageView: `times` box blurs of width `size` (forced odd, as SABlur does), each
    /// pass clamped at the image edge (vImage `kvImageEdgeExtend`).
    case boxes(size: Int, times: Int)

    /// SABlurImageView's weak level: 25×2 (σ ≈ 10.2).
    public static let weak = BlurMode.boxes(size: 25, times: 2)
    /// SABlurImageView's default level: 50×2, a box width of 51 (σ ≈ 20.8).
    public static let standard = BlurMode.boxes(size: 50, times: 2)
    /// SABlurImageView's strong level: 100×3, a box width of 101 (σ ≈ 50.5).
    public static let strong = BlurMode.boxes(size: 100, times: 3)

    /// The preset for a level name as used on the command line: `weak`, `default` or `strong`.
    public init?(level: String) {
        switch level {
        case "weak": self = .weak
        case "default": self = .standard
        case "strong": self = .strong
        default: return nil
        }
    }

    /// Rejects negative, non-finite or absurd parameters.
    func validate() throws {
        switch self {
        case .gaussian(let sigma):
            guard sigma.isFinite, sigma >= 0, sigma <= 2000 else {
                throw RenderError(.invalidParameter, "sigma must be a finite number in 0...2000, got \(sigma)")
            }
        case .boxes(let size, let times):
            // The integer cascade keeps exact UInt32 sums: 255 · dⁿ must stay below 2³².
            let width = 2 * (max(size, 0) / 2) + 1
            let exact = (0...3).contains(times) && (0..<times).reduce(255) { acc, _ in acc * width } < 1 << 32
            guard size >= 0, size <= 4095, exact else {
                throw RenderError(
                    .invalidParameter,
                    "boxes need size ≥ 0, times 0...3 and 255·width^times < 2^32, got \(size)x\(times)")
            }
        }
    }
}

/// One extended box of Gwosdek et al.: weight 1 on offsets −l…l, `alpha` on ±(l+1).
struct ExtendedBox: Equatable {
    let l: Int
    let alpha: Float
    /// The kernel's total weight, 2l + 1 + 2α.
    var weight: Float { Float(2 * l + 1) + 2 * alpha }

    /// The box with variance `variance`, as in Pillow's `_gaussian_blur_radius` (Gwosdek 2011).
    init(variance: Double) {
        let l = Int(((12 * variance + 1).squareRoot() - 1) / 2)
        let ll = Double(l)
        let a = (2 * ll + 1) * (ll * (ll + 1) - 3 * variance) / (6 * (variance - (ll + 1) * (ll + 1)))
        self.l = l
        self.alpha = Float(a)
    }
}

/// An extended box blended with its centre pixel: `(1 − q)·x[c] + q·box(x)[c]`.
///
/// Equal boxes in cascade have lighter tails than a Gaussian (each box's excess kurtosis is
/// −1.2, so n of them sit at −1.2/n); on a 2-D feature (an edge meeting a bar, a corner) the
/// difference of the two axes adds up, and three boxes alone miss a float Gaussian by up to
/// 5 LSB. This stage has positive excess kurtosis (a peak on a wide base), so one of it in
/// front of the boxes brings the whole kernel within ≈ 0.4 LSB of the Gaussian in float,
/// before the two roundings to bytes, at the cost of one more box with one more multiply-add.
struct PeakedBox: Equatable {
    let box: ExtendedBox
    /// The centre pixel's weight in units of a box tap, (1 − q)·W/q for the box's total
    /// weight W: the stage sums `box + centre·x[c]` and is normalized with the rest.
    let centre: Float
    /// The stage's total weight.
    var weight: Float { box.weight + centre }

    /// The blend (q, the box's share) and the box's variance (as a fraction of σ²) tuned per
    /// count of plain boxes after it, for the smallest worst error against a float Gaussian
    /// on 2-D features at σ 10.2 … 100 (see benchmarks/blur/README.md).
    static func tuning(boxes: Int) -> (share: Double, spread: Double) {
        switch boxes {
        case ...3: (0.45, 0.8)
        case 4: (0.5, 0.7)
        default: (0.45, 0.65)
        }
    }

    init(share: Double, variance: Double) {
        box = ExtendedBox(variance: variance)
        centre = Float((1 - share) / share) * box.weight
    }
}

/// A blur mode turned into passes along one axis.
enum BoxCascade: Equatable {
    /// One ``PeakedBox`` then `times` identical fractional boxes, in Float32 behind a clamp
    /// (the line continues with its edge pixels), run in one sweep (``BoxChain``).
    case extended(ExtendedBox, times: Int, peak: PeakedBox)
    /// `times` integer boxes of radius `radius` with exact UInt32 sums, clamped at every pass.
    case integer(radius: Int, times: Int)
    /// Nothing to do.
    case identity

    init(_ mode: BlurMode, gaussianPasses: Int) {
        switch mode {
        case .gaussian(let sigma):
            if sigma < 0.05 {
                self = .identity
            } else {
                // The peaked stage takes q·w of the variance σ², the boxes share the rest.
                let (share, spread) = PeakedBox.tuning(boxes: gaussianPasses)
                let variance = sigma * sigma
                let peak = PeakedBox(share: share, variance: spread * variance)
                let box = ExtendedBox(variance: (1 - share * spread) * variance / Double(gaussianPasses))
                self = .extended(box, times: gaussianPasses, peak: peak)
            }
        case .boxes(let size, let times):
            let radius = size / 2
            self = radius == 0 || times == 0 ? .identity : .integer(radius: radius, times: times)
        }
    }

    /// Replicated pixels an integer line needs on each side (extended boxes need none).
    var margin: Int {
        switch self {
        case .integer(let radius, _): radius + 1
        case .extended, .identity: 0
        }
    }
}
