/// A CALayer-style layer: geometry, background, border, shadow, text and sublayers.
///
/// Geometry is in points: `frame` places the untransformed layer in its superlayer, and
/// `transform` (rotation, scale) is applied about the layer's centre (anchor point 0.5, 0.5).
public struct Layer: Sendable, Hashable {
    public var name: String
    public var frame: Rect
    public var backgroundColor: Color?
    /// Drawn over the background colour, like a CAGradientLayer (a selected table row).
    public var gradient: LinearGradient?
    /// An image over the background and gradient, filling the bounds (CALayer's `contents`).
    public var contents: ImageContent?
    public var cornerRadius: Double = 0
    public var borderWidth: Double = 0
    public var borderColor: Color = .black
    /// The layer's opacity; below 1 the layer and its sublayers are composited as one group.
    public var opacity: Double = 1
    public var transform: AffineTransform = .identity
    /// Clips sublayers and text to the (rounded) bounds, and the layer's own shadow too.
    public var masksToBounds = false
    public var shadow: Shadow?
    public var text: TextContent?
    /// A filled path over the background, like a CAShapeLayer (canvas strokes).
    public var shape: ShapeContent?
    /// Blurs what lies behind the layer within its rounded bounds (SABlurImageView region blur).
    public var backdropBlur: BlurMode?
    public var sublayers: [Layer] = []

    public init(name: String = "", frame: Rect) {
        self.name = name
        self.frame = frame
    }

    /// The layer's own coordinate space: (0, 0) to (width, height).
    public var bounds: Rect { Rect(x: 0, y: 0, width: frame.width, height: frame.height) }
}

/// A CALayer shadow.
public struct Shadow: Sendable, Hashable {
    /// How shadowRadius maps to the Gaussian σ; Apple documents none, the best evidence is
    /// σ ≈ r (see blur.md §1.2). One constant, pinned by the golden test.
    public static let sigmaPerRadius = 1.0

    public var color: Color = .black
    public var opacity: Double
    /// In points; +height moves the shadow down (UIKit). Applied unrotated, in screen space.
    public var offset: Size = Size(0, -3)
    public var radius: Double = 3
    /// The shadow's shape in layer coordinates (non-zero rule); nil uses the layer's alpha.
    public var path: Path?
}

/// Text drawn in a layer, left to right, wrapped to the layer's width minus the insets.
public struct TextContent: Sendable, Hashable {
    public var string: String
    /// In points.
    public var fontSize: Double = 17
    public var color: Color = .black
    /// Padding from the layer's edges, in points.
    public var inset: Double = 0
    /// One line only, ending in "…" where the text goes on (UILabel's one line, truncating the tail).
    public var singleLine: Bool = false
    /// Glyph outlines thickened, as a bold face draws them.
    public var bold: Bool = false
    /// One line centred in the layer both ways (UILabel's centre alignment: the line box, ascender
    /// to descender, in the middle), truncated as ``singleLine`` is.
    public var centred: Bool = false
}

/// A path filled with one colour (non-zero rule), in the layer's coordinates.
public struct ShapeContent: Sendable, Hashable {
    public var path: Path
    public var color: Color
}
