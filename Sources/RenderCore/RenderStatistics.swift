/// What one ``LayerRenderer/render(_:width:height:scale:background:observer:)`` call did: the
/// counts tests and the worker's health read to check that culling and pooling work.
public struct RenderStatistics: Sendable, Equatable {
    /// Layers drawn (each layer once, sublayers counted separately). A group taken from the
    /// cache (``groupCacheHits``) counts once: its sublayers were not drawn this frame.
    public var layersDrawn = 0
    /// Layers skipped because they, their shadows and their sublayers lie outside the canvas
    /// or the clip; their sublayers are not counted.
    public var layersCulled = 0
    /// Offscreen groups drawn (layers with opacity < 1 or a shadow from their alpha).
    public var offscreenGroups = 0
    /// Pixels of the largest offscreen group.
    public var largestOffscreenPixels = 0
    /// Offscreen buffers that had to be allocated rather than taken from the renderer's pool.
    public var offscreenAllocations = 0
    /// Text layers whose sampled coverage came from the cache.
    public var textCacheHits = 0
    /// Text layers laid out and sampled this frame.
    public var textCacheMisses = 0
    /// Offscreen groups taken as drawn in an earlier frame (same contents and placement).
    public var groupCacheHits = 0
    /// Shadows whose blurred alpha came from the cache (the same shape and σ as a recent frame).
    public var shadowCacheHits = 0
    /// Shadows blurred this frame.
    public var shadowCacheMisses = 0

    public init() {}
}
