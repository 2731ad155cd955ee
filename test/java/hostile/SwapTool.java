// SwapTool.java - passes the denylist, then at run time overwrites the
// class file of Later (not loaded yet) with other bytes carried in a
// string constant, and calls Later. The sandbox's launcher loaded every
// checked class before main ran, so the checked Later answers; without
// that preloading the swapped one would (and could do anything: its bytes
// were never checked). The swapped Later here only says "swapped".
import java.io.FileOutputStream;
import java.util.Base64;

public class SwapTool {
	static final String SWAPPED = "yv66vgAAAD0AEQoAAgADBwAEDAAFAAYBABBqYXZhL2xhbmcvT2JqZWN0AQAGPGluaXQ+AQADKClWCAAIAQAHc3dhcHBlZAcACgEABUxhdGVyAQAEQ29kZQEAD0xpbmVOdW1iZXJUYWJsZQEAAXMBABQoKUxqYXZhL2xhbmcvU3RyaW5nOwEAClNvdXJjZUZpbGUBAApMYXRlci5qYXZhACAACQACAAAAAAACAAAABQAGAAEACwAAAB0AAQABAAAABSq3AAGxAAAAAQAMAAAABgABAAAAAQAIAA0ADgABAAsAAAAbAAEAAAAAAAMSB7AAAAABAAwAAAAGAAEAAAADAAEADwAAAAIAEA==";

	public static void main(String[] args) throws Exception {
		byte[] b = Base64.getDecoder().decode(SWAPPED);
		try (FileOutputStream f = new FileOutputStream(".airlock/classes/Later.class")) {
			f.write(b);
		}
		System.out.println("{\"later\":\"" + Later.s() + "\"}");
	}
}

class Later {
	static String s() {
		return "original";
	}
}
