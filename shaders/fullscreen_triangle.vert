// One triangle that covers the viewport, from gl_VertexID alone (no vertex data); the pyramid
// passes draw it once per level so that one fragment runs per texel.
void main()
{
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
