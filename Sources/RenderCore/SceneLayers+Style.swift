import BusSchema

/// What every view declares in the scene, drawn the same whatever it hosts: its corner radius, its
/// region blur (under a tint of its background), its inner shadow and its drop shadow.
extension SceneLayers {
    static func color(_ color: SceneColor) -> Color {
        Color(hex: color.rgb, alpha: color.alpha)
    }

    static func shadow(_ shadow: Scene.Shadow, path: Path?) -> Shadow {
        Shadow(
            color: color(shadow.color), opacity: shadow.opacity, offset: Size(shadow.offsetX, shadow.offsetY),
            radius: shadow.radius, path: path)
    }

    static func blurMode(_ blur: Scene.Blur) -> BlurMode {
        switch blur.radius {
        case .level(.weak): .weak
        case .level(.default): .standard
        case .level(.strong): .strong
        case .gaussian(let sigma): .gaussian(sigma: sigma)
        }
    }

    /// A view's drop shadow, on a layer of its own under it: the view clips its contents, and a
    /// clipping layer would clip its own shadow (as CALayer's `masksToBounds` does).
    static func shadowLayer(_ declared: Scene.Shadow, of view: Scene.View) -> Layer {
        var layer = Layer(name: "\(view.id).shadow", frame: Rect(view.frame))
        layer.shadow = shadow(
            declared,
            path: Path(roundedRect: layer.bounds, cornerRadius: min(view.cornerRadius, layer.bounds.maxRadius)))
        return layer
    }

    /// Applies the view's blur and inner shadow. The blur, a first sublayer with its own rounded
    /// mask, reads what lies behind the view, so the view's background (and its text, drawn over
    /// it) move to sublayers after it, tinting the blur rather than being blurred.
    static func style(_ layer: inout Layer, _ view: Scene.View) {
        if let blur = view.blur {
            var region = Layer(name: "blur", frame: layer.bounds)
            region.backdropBlur = blurMode(blur)
            region.cornerRadius = blur.cornerRadius
            var below = [region]
            if let tint = layer.backgroundColor {
                var background = Layer(name: "tint", frame: layer.bounds)
                background.backgroundColor = tint
                background.cornerRadius = layer.cornerRadius
                layer.backgroundColor = nil
                below.append(background)
            }
            // A layer draws its text before its sublayers: the text moves over the tint too.
            if let text = layer.text {
                var label = Layer(name: "text", frame: layer.bounds)
                label.text = text
                layer.text = nil
                below.append(label)
            }
            layer.sublayers.insert(contentsOf: below, at: 0)
        }
        if let inner = view.innerShadow {
            layer.masksToBounds = true
            layer.sublayers.append(innerShadow(inner, bounds: layer.bounds, cornerRadius: layer.cornerRadius))
        }
    }

    /// An inner shadow: a layer over the view whose shadow path is a frame around a hole the
    /// view's shape, so the shade falls inward from the edges the offset points away from (the
    /// view clips what falls outside).
    static func innerShadow(_ declared: Scene.Shadow, bounds: Rect, cornerRadius: Double) -> Layer {
        var layer = Layer(name: "innerShadow", frame: bounds)
        let margin = declared.radius * 3 + abs(declared.offsetX) + abs(declared.offsetY) + 1
        var frame = Path(rect: bounds.insetBy(-margin, -margin))
        frame.addRoundedRect(bounds, cornerRadius: min(cornerRadius, bounds.maxRadius), reversed: true)
        layer.shadow = shadow(declared, path: frame)
        return layer
    }
}

extension Rect {
    /// A scene frame.
    init(_ frame: Scene.Frame) {
        self.init(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    }

    /// Half the shorter side: the largest corner radius the rectangle takes.
    var maxRadius: Double { min(self.width, self.height) / 2 }
}
