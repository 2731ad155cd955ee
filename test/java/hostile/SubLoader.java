// SubLoader.java - a ClassLoader subclass calling defineClass on bytes it
// was given. Refused before it runs: the superclass is on the denylist.
public class SubLoader extends ClassLoader {
	Class<?> make(byte[] b) {
		return defineClass(null, b, 0, b.length);
	}

	public static void main(String[] args) {
		new SubLoader().make(new byte[] { (byte) 0xca });
		System.out.println("{\"ran\":true}");
	}
}
