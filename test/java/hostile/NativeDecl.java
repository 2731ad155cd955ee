// NativeDecl.java - declares a native method (denied: native code).
public class NativeDecl {
	static native int evil();

	public static void main(String[] args) {
		System.out.println("{\"ran\":true}");
	}
}
