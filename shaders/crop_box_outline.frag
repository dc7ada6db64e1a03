// One colour for the edges and handles, a brighter one for the handle under the mouse, a dark
// rim around each handle so it reads on a bright surface.
flat in int v_face;
flat in int v_border;

uniform vec3 u_color;
uniform vec3 u_highlightColor;
uniform int u_highlightedFace;

out vec4 o_color;

void main()
{
    if (v_border == 1) {
        o_color = vec4(0.05, 0.05, 0.05, 1.0);
        return;
    }
    o_color = vec4(v_face >= 0 && v_face == u_highlightedFace ? u_highlightColor : u_color, 1.0);
}
