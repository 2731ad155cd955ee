// UnsafeUse.java - sun.misc.Unsafe (denied: JDK internals).
public class UnsafeUse {
	public static void main(String[] args) {
		long size = sun.misc.Unsafe.getUnsafe().addressSize();
		System.out.println("{\"ran\":" + size + "}");
	}
}
