// EvilProvider.java - an unchecked charset provider: ServiceLoader (which
// Charset.forName consults for unknown names, on the system class
// loader) would instantiate it from META-INF/services.
public class EvilProvider extends java.nio.charset.spi.CharsetProvider {
	static {
		System.out.println("DENYLIST-BYPASSED service");
	}

	public java.util.Iterator<java.nio.charset.Charset> charsets() {
		return java.util.Collections.emptyIterator();
	}

	public java.nio.charset.Charset charsetForName(String name) {
		return null;
	}
}
