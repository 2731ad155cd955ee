// LoadLib.java - System.loadLibrary (denied: native library loading).
public class LoadLib {
	public static void main(String[] args) {
		System.loadLibrary("evil");
		System.out.println("{\"ran\":true}");
	}
}
